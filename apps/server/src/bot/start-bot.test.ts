import { seedGuildIds } from '@vrclink/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../test/app.js';
import { createScratchDatabase } from '../../test/db.js';
import { waitFor } from '../platforms/testing.js';
import { acquireGatewayLock } from './gateway-lock.js';

const adminUrl = process.env.DATABASE_URL;

/**
 * The bot role's gateway tenure on PostgreSQL: the lock lives on its own connection in a scratch database
 * (so no other test's lock interferes), the gateway on the simulator.
 */
describe.skipIf(!adminUrl)('the bot role holding the gateway lock (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let t: TestApp;
  let admin: pg.Client;

  const sessions = async () =>
    ((await t.control('GET', '/discord/gateway')).body as { sessions: unknown[] }).sessions.length;
  /** The backend holding the gateway lock (namespace 72707370), if any. */
  const lockHolderPid = async (): Promise<number | undefined> => {
    const { rows } = await admin.query(
      `select l.pid from pg_locks l join pg_database d on d.oid = l.database
        where l.locktype = 'advisory' and l.classid = 72707370 and l.granted and d.datname = $1`,
      [new URL(scratch.url).pathname.slice(1)],
    );
    return rows[0]?.pid;
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl as string);
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    t = await createTestApp({
      ...laxSimulator.forManyDiscordCalls,
      env: { DATABASE_URL: scratch.url },
      bot: { lockRetryMs: 100, connectRetryMs: 500 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await admin?.end();
    await scratch?.drop();
  });

  it('connects again, with REST working, after its lock connection was terminated', async () => {
    expect(t.platforms?.gatewayState()).toBe('ready');
    const pid = await lockHolderPid();
    expect(pid).toEqual(expect.any(Number));
    await admin.query('select pg_terminate_backend($1)', [pid]);
    // A new lock connection, a fresh gateway session, and REST calls carrying the token again.
    await waitFor(async () => {
      const now = await lockHolderPid();
      return now !== undefined && now !== pid && t.platforms?.gatewayState() === 'ready';
    }, 30_000);
    expect(await sessions()).toBe(1);
    const guild = await t.ctx.discord.getGuild(seedGuildIds.hangout.id);
    expect(guild?.name).toBe('VRChat Hangout');
  }, 40_000);

  it('releases the lock while it cannot connect, and connects once it holds the lock again and Discord answers', async () => {
    // Discord's gateway discovery fails: the holder cannot connect.
    await t.control('POST', '/faults', {
      platform: 'discord',
      kind: 'server_error',
      pathContains: '/gateway/bot',
    });
    await t.control('POST', '/discord/gateway/disconnect', { code: 4000 });
    const pid = await lockHolderPid();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    // Another process (here the test) can take the gateway lock: the failed holder gave it up.
    const other = acquireGatewayLock({ databaseUrl: scratch.url, shardIds: [0], retryMs: 50 });
    await other.acquired;
    expect(t.platforms?.gatewayState()).not.toBe('ready');
    await t.control('DELETE', '/faults');
    await other.release();
    await waitFor(() => t.platforms?.gatewayState() === 'ready', 30_000);
    expect(await sessions()).toBe(1);
  }, 60_000);
});
