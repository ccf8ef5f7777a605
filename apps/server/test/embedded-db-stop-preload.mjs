// Loaded with `node --import` by demo-start.test.ts: SIGUSR2 ends the embedded database's thread as a crash
// would (Worker.terminate: no close, no reply to the calls waiting), everything else runs as usual.
import { syncBuiltinESMExports } from 'node:module';
import workerThreads, { isMainThread } from 'node:worker_threads';

const Original = workerThreads.Worker;
const databaseThreads = new Set();
workerThreads.Worker = class extends Original {
  constructor(script, options) {
    super(script, options);
    // The bundle's pglite-thread.mjs, or from the sources the boot script importing pglite-thread.ts.
    if (String(script).includes('pglite-thread')) databaseThreads.add(this);
  }
};
syncBuiltinESMExports();
// Loaded in every thread too: only the main thread hears signals.
if (isMainThread)
  process.on('SIGUSR2', () => {
    for (const thread of databaseThreads) void thread.terminate();
  });
