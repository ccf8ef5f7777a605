import { act, cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { dismissAll, setToastLifetime } from '../src/components/toasts/store';

// findBy*/waitFor wait up to 15 s for what they look for (they return as soon as it is there): on a CPU-loaded
// machine the first render of a lazily imported page waits on Vitest transforming its modules, which took over
// 5 s with two busy loops beside the suite (issue #34 item 3).
configure({ asyncUtilTimeout: 15_000 });

// jsdom lacks the layout APIs Mantine touches.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};

// The app logs expected failures (a visitor who is not logged in) with console.debug: keep test output
// clean; a test can still assert on the spy.
beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  // A toast stays 10 minutes in the unit tests, not 5 s: a test that waits for one may reach it later than 5 s
  // after it showed on a loaded machine (WorldsTab's Create new, a CI run). ToastArea.test.tsx tests the 5 s.
  setToastLifetime(10 * 60_000);
});

// Every test starts from the same place: no toasts, nothing stored for the tab, real timers, real fetch, no spies.
afterEach(() => {
  act(() => dismissAll());
  cleanup();
  // What a page remembers for the browser tab (open worlds, a logout) does not leak into the next test.
  sessionStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
