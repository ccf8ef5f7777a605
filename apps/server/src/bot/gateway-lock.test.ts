import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { acquireGatewayLock, gatewayLockClientConfig } from './gateway-lock.js';

const url = process.env.DATABASE_URL;
const settled = async (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

/**
 * A first shard id of a range no other run uses: the locks live in the shared test database, where another
 * suite's run may hold ids of its own (a narrow random range met one there: a shard taken counted as held).
 */
let nextRange = 10_000 + Math.floor(Math.random() * 1_000_000) * 1_000;
const freeRange = () => {
  nextRange += 300;
  return nextRange;
};

/**
 * A TCP proxy in front of PostgreSQL that can go silent: it stops passing bytes either way and closes nothing,
 * as a connection does that a firewall dropped or whose server host vanished.
 */
async function silenceableProxy(target: string) {
  const to = new URL(target);
  const sockets: Socket[] = [];
  const server: Server = createServer((from) => {
    const upstream = tcpConnect(Number(to.port || 5432), to.hostname);
    sockets.push(from, upstream);
    for (const s of [from, upstream]) s.on('error', () => {});
    from.pipe(upstream).pipe(from);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    silence() {
      for (const s of sockets) {
        s.unpipe();
        s.pause();
      }
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the gateway lock', () => {
  it('is held at once on the embedded database (one process)', async () => {
    const lock = acquireGatewayLock({ shardIds: [0] });
    expect(await settled(lock.acquired, 100)).toBe(true);
    await lock.release();
  });

  it.skipIf(!url)('lets one process hold a shard; a second one waits and takes over on release', async () => {
    // A shard id no other test uses, so parallel test files cannot interfere.
    const shardIds = [freeRange()];
    const first = acquireGatewayLock({ databaseUrl: url, shardIds, retryMs: 50 });
    await first.acquired;
    let waiting = false;
    const second = acquireGatewayLock({
      databaseUrl: url,
      shardIds,
      retryMs: 50,
      onWaiting: () => {
        waiting = true;
      },
    });
    expect(await settled(second.acquired, 300)).toBe(false);
    expect(waiting).toBe(true);
    await first.release();
    expect(await settled(second.acquired, 2000)).toBe(true);
    await second.release();
  });

  it.skipIf(!url)('holds every shard it runs or none (a shard held elsewhere blocks the set)', async () => {
    const a = freeRange();
    const one = acquireGatewayLock({ databaseUrl: url, shardIds: [a], retryMs: 50 });
    await one.acquired;
    const both = acquireGatewayLock({ databaseUrl: url, shardIds: [a + 100, a], retryMs: 50 });
    expect(await settled(both.acquired, 300)).toBe(false);
    // The shard it could take is not kept while it waits for the other.
    const other = acquireGatewayLock({ databaseUrl: url, shardIds: [a + 100], retryMs: 50 });
    expect(await settled(other.acquired, 1000)).toBe(true);
    await Promise.all([one.release(), both.release(), other.release()]);
  });

  it.skipIf(!url)(
    'with atMost, takes only free shards, up to that many, so processes spread them',
    async () => {
      const base = freeRange();
      const shardIds = [base, base + 1, base + 2];
      const first = acquireGatewayLock({ databaseUrl: url, shardIds, atMost: 2, retryMs: 50 });
      expect(await first.acquired).toEqual([base, base + 1]);
      const second = acquireGatewayLock({ databaseUrl: url, shardIds, atMost: 2, retryMs: 50 });
      expect(await second.acquired).toEqual([base + 2]);
      // Nothing left: a third process stands by until one lets go.
      const third = acquireGatewayLock({ databaseUrl: url, shardIds, atMost: 2, retryMs: 50 });
      expect(await settled(third.acquired, 300)).toBe(false);
      await first.release();
      // Both at once, as the first's shards are free once its release resolved; should a try meet them still
      // being let go of (one by one), it holds what it found and takes the rest next.
      const taken = await third.acquired;
      if (taken.length < 2) taken.push(...(await third.takeMore(2 - taken.length)));
      expect(taken.sort((x, y) => x - y)).toEqual([base, base + 1]);
      await Promise.all([second.release(), third.release()]);
    },
  );

  it.skipIf(!url)(
    'takes more free shards later, never one it holds twice, and gives back those it will not run',
    async () => {
      const base = freeRange();
      const shardIds = [base, base + 1, base + 2];
      const other = acquireGatewayLock({ databaseUrl: url, shardIds: [base + 1], retryMs: 50 });
      await other.acquired;
      const grower = acquireGatewayLock({ databaseUrl: url, shardIds, atMost: 3, retryMs: 50 });
      expect(await grower.acquired).toEqual([base, base + 2]);
      expect(await grower.takeMore(1)).toEqual([]);
      // The other holder died: its shard is free and taken once.
      await other.release();
      expect(await grower.takeMore(1)).toEqual([base + 1]);
      expect(await grower.takeMore(1)).toEqual([]);
      // Given back, the shard is free for another process at once (not still counted by a second lock).
      await grower.giveBack([base + 1]);
      const next = acquireGatewayLock({ databaseUrl: url, shardIds: [base + 1], retryMs: 50 });
      expect(await settled(next.acquired, 1000)).toBe(true);
      await Promise.all([grower.release(), next.release()]);
    },
  );

  it.skipIf(!url)(
    'tells its holder the lock is lost when the connection goes silent, and lets go without waiting for it',
    async () => {
      const proxy = await silenceableProxy(url as string);
      try {
        const lock = acquireGatewayLock({ databaseUrl: proxy.url, shardIds: [freeRange()], livenessMs: 200 });
        await lock.acquired;
        const lost = new Promise<void>((resolve) => lock.onLost(resolve));
        proxy.silence();
        // Without the liveness check nothing ever ends this wait: no error, no end, just silence.
        await lost;
        await lock.release();
      } finally {
        await proxy.close();
      }
    },
  );

  it.skipIf(!url)('lets go at its deadline when stopped while the connection is silent', async () => {
    const proxy = await silenceableProxy(url as string);
    try {
      // A check far off: the silence is not noticed before the process stops.
      const lock = acquireGatewayLock({ databaseUrl: proxy.url, shardIds: [freeRange()], livenessMs: 300 });
      await lock.acquired;
      proxy.silence();
      // Without the deadline the unlock waits for an answer that never comes.
      await lock.release();
    } finally {
      await proxy.close();
    }
  });

  it.skipIf(!url)("asks the server to free a silent holder's shards after about a minute", async () => {
    // Longer than the holder's own check (at most about 10 s): the old holder stops before another takes over.
    const c = new pg.Client(gatewayLockClientConfig(url as string));
    await c.connect();
    try {
      const { rows } = await c.query(
        `select current_setting('tcp_keepalives_idle') as idle, current_setting('tcp_keepalives_interval') as every,
                current_setting('tcp_keepalives_count') as count`,
      );
      const [{ idle, every, count }] = rows;
      expect(Number.parseInt(idle, 10) + Number.parseInt(every, 10) * Number.parseInt(count, 10)).toBe(60);
    } finally {
      await c.end();
    }
  });
});
