import { describe, expect, it } from 'vitest';
import { databaseIdentifyThrottler } from './identify-throttler.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('the identify throttler shared through the database', () => {
  // max_concurrency far above any other test's, so its buckets are this test's own.
  const maxConcurrency = 5000 + Math.floor(Math.random() * 1000);
  const windowMs = 400;

  it('lets the next shard of a bucket, from any process, identify only after the window', async () => {
    // Two throttlers: two processes. Shards 0 and maxConcurrency share bucket 0.
    const a = databaseIdentifyThrottler(url as string, maxConcurrency, windowMs);
    const b = databaseIdentifyThrottler(url as string, maxConcurrency, windowMs);
    const signal = new AbortController().signal;
    await a.waitForIdentify(0, signal);
    const first = performance.now();
    await b.waitForIdentify(maxConcurrency, signal);
    // The window plus the throttler's margin (1 s) over the moment the first took the bucket.
    expect(performance.now() - first).toBeGreaterThanOrEqual(windowMs + 900);
  });

  it('lets shards of different buckets identify at once', async () => {
    const a = databaseIdentifyThrottler(url as string, maxConcurrency, windowMs);
    const b = databaseIdentifyThrottler(url as string, maxConcurrency, windowMs);
    const signal = new AbortController().signal;
    await a.waitForIdentify(1, signal);
    const first = performance.now();
    await b.waitForIdentify(2, signal);
    expect(performance.now() - first).toBeLessThan(windowMs);
  });

  it('stops waiting when aborted', async () => {
    const a = databaseIdentifyThrottler(url as string, maxConcurrency, 5000);
    const b = databaseIdentifyThrottler(url as string, maxConcurrency, 5000);
    await a.waitForIdentify(3, new AbortController().signal);
    const abort = new AbortController();
    const waiting = b.waitForIdentify(3, abort.signal);
    abort.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});

describe('the identify throttler without its database', () => {
  it('paces this process alone instead of failing the IDENTIFY', async () => {
    const throttler = databaseIdentifyThrottler('postgres://postgres@127.0.0.1:1/nowhere', 1, 200);
    const signal = new AbortController().signal;
    await throttler.waitForIdentify(0, signal);
    const first = performance.now();
    await throttler.waitForIdentify(0, signal);
    expect(performance.now() - first).toBeGreaterThanOrEqual(1100);
  });
});
