import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One more worker than cores (Vitest's default is one fewer, a single worker on a 2-core machine): most test
    // files wait on simulators, databases and timers, not on the CPU. VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || availableParallelism() + 1,
    // Test files of the server and simulator projects share their worker's loaded modules (isolate: false in
    // each): isolated, every file loaded the whole server again, and the server suite spent 365 s of CPU instead of
    // 176 s. What one file could leave behind (fake timers, stubbed globals and env, spies) is undone after each
    // file by the projects' setup files; tests build their own apps and databases.
    projects: [
      {
        test: {
          name: 'server',
          isolate: false,
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          // Caps, not waits: tests that build a test app of their own took over 30 s with the CPU loaded.
          testTimeout: 60_000,
          // A cap, not a wait: a test app's set-up (database, simulator, signed-in members) took over a minute with
          // the CPU loaded three times over.
          hookTimeout: 120_000,
          setupFiles: ['test/setup.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'simulator',
          isolate: false,
          root: 'apps/simulator',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          setupFiles: ['test/setup.ts'],
        },
      },
      {
        extends: 'apps/web/vite.config.ts',
        test: {
          name: 'web',
          // Isolated: with shared modules a lazily imported page (React.lazy) that one file started loading while
          // its jsdom was torn down stayed failed for every later file.
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Worker threads, not child processes: each file still gets fresh modules and its own jsdom, and the
          // web files ran about 15 % faster (4 files: 11.3–11.6 s against 13.7–14.2 s).
          pool: 'threads',
          // The UI libraries bundled once into a file each (Vite's dependency optimizer) instead of hundreds of
          // modules every file imports again: the web files took 201 s of CPU instead of 235 (106 s of wall time
          // instead of 123), alone on a quiet 2-core machine, 2 Dec 2026.
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: [
                  '@mantine/core',
                  '@mantine/hooks',
                  '@mantine/dates',
                  '@mantine/dropzone',
                  '@mantine/form',
                  '@mantine/notifications',
                  '@tabler/icons-react',
                  '@tanstack/react-query',
                  'react-router',
                  'react',
                  'react-dom',
                  '@dnd-kit/core',
                  '@dnd-kit/sortable',
                  '@dnd-kit/utilities',
                  '@testing-library/react',
                  '@testing-library/dom',
                ],
              },
            },
          },
          // Above the 15 s findBy*/waitFor wait of test/setup.ts.
          testTimeout: 30_000,
          setupFiles: ['test/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          environment: 'node',
          // Caps, not waits: a journey of 15–20 s on a quiet machine took three and a half times that on a slow one.
          testTimeout: 180_000,
          hookTimeout: 240_000,
          // expect.poll's 1 s default is shorter than a page's round trip on a loaded 2-core CI machine.
          expect: { poll: { timeout: 15_000 } },
          globalSetup: ['global-setup.ts'],
          fileParallelism: false,
          // Each journey file starts from fresh modules (its own browser, its own signed-in pages).
          isolate: true,
        },
      },
    ],
  },
});
