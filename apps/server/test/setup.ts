import '../src/polyfills.js';
import { afterAll, vi } from 'vitest';

// Test files share their worker's modules (isolate: false, vitest.config.ts): undo what a file may leave behind.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
