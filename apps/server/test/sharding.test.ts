import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import type { startOwnSimulator } from '../src/demo.js';
import { callSimulatorControl, LAX_SIMULATOR, waitFor } from '../src/platforms/testing.js';
import { shardOfGuild } from '../src/wings/access/guilds/guild-snapshot.store.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import type { createScratchDatabase } from './db.js';
import { type ServerProcess, sharedBackends, signedInHeaders, startServerProcess } from './server-process.js';

const adminUrl = process.env.DATABASE_URL;
const ADMIN = '1200000000000000001';
const SECRET_KEY = 'sharding-test-secret-key-000000000000';
const METRICS_TOKEN = 'sharding-test-metrics-token';

/**
 * Two bot processes against the sharding simulator on one PostgreSQL database: the shard count comes from
 * Discord's recommendation (one shard per 4 servers here, 8 servers: 2 shards; one session may hold at most
 * 6, so an unsharded bot would be refused with 4011), each process takes one shard, every server's
 * GUILD_CREATE reaches exactly one of them, the scheduled sync covers every server once, and a member
 * reconciliation in one process keeps the other shard's mirror.
 */
describe.skipIf(!adminUrl)('two bot processes, one gateway shard each', () => {
  let sim: Awaited<ReturnType<typeof startOwnSimulator>>;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let procs: ServerProcess[] = [];
  let sessionToken: string;
  let guildIds: string[];

  const control = (method: string, path: string, body?: unknown) =>
    callSimulatorControl(sim.sim.url, method, path, body);
  const rows = async <T>(sql: string, params: unknown[] = []) =>
    (await database.executeSql(sql, params)).rows as T[];
  const gateway = async () =>
    (await control('GET', '/discord/gateway')).body as {
      sessions: { shard: [number, number] }[];
      identifyRefusedTooSoon: number;
    };
  /** The servers each shard of this process holds, from its /metrics. */
  const shardGuilds = async (proc: ServerProcess) => {
    const res = await fetch(`${proc.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    return [...text.matchAll(/^vrclink_gateway_shard_guilds\{shard="(\d+)"\} (\d+)$/gm)].map((m) => ({
      shard: Number(m[1]),
      guilds: Number(m[2]),
    }));
  };
  const runTask = async (taskName: string) => {
    const res = await fetch(`${procs[0].url}/api/admin/scheduled-tasks/run/vrclink/shard-a/${taskName}`, {
      method: 'POST',
      headers: signedInHeaders(SECRET_KEY, sessionToken),
    });
    expect(res.status).toBe(200);
  };
  /** Every job of `name` (waiting, done or archived) created since `since`. */
  const jobs = (name: string, since: Date) =>
    rows<{ state: string; data: { guildId?: string; reason?: string } }>(
      `select state, data from pgboss.job where name = $1 and created_on >= $2
       union all select state, data from pgboss.archive where name = $1 and created_on >= $2`,
      [name, since],
    );
  const idle = async (name: string) =>
    (
      await rows(`select 1 from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`, [
        name,
      ])
    ).length === 0;

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sim, scratch, env } = await sharedBackends(adminUrl as string, SECRET_KEY, {
      ...LAX_SIMULATOR,
      discordGateway: { recommendedGuildsPerShard: 4, maxGuildsPerShard: 6 },
    }));
    const bulk = await control('POST', '/discord/bulk-guilds', { count: 6 });
    expect(bulk.status).toBe(201);
    guildIds = [
      seedGuildIds.hangout.id,
      seedGuildIds.danceClub.id,
      ...(bulk.body as { guilds: { id: string }[] }).guilds.map((g) => g.id),
    ];
    // The world this test needs: both shards have servers, and no session may hold all of them.
    const perShard = [0, 1].map((s) => guildIds.filter((id) => shardOfGuild(id, 2) === s).length);
    expect(perShard.every((n) => n > 0 && n <= 6)).toBe(true);

    database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
    const shardEnv = { ...env, SHARDS_PER_PROCESS: '1', METRICS_TOKEN };
    // Both at once: they race for the shard locks and identify in the same bucket (max_concurrency 1).
    procs = await Promise.all([
      startServerProcess({ ...shardEnv, INSTANCE_NAME: 'shard-a' }),
      startServerProcess({ ...shardEnv, INSTANCE_NAME: 'shard-b' }),
    ]);
    await waitFor(async () => (await gateway()).sessions.length === 2, 60_000);
    await upsertUser(database.db, { id: ADMIN, username: 'demo_admin', globalName: null, avatar: null });
    sessionToken = await createSession(database.db, ADMIN, 'web');
  }, 240_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await database?.close();
    await scratch?.drop();
    await sim?.sim.close();
  }, 60_000);

  it('runs the recommended two shards, one per process, without an IDENTIFY refused as too early', async () => {
    const { sessions, identifyRefusedTooSoon } = await gateway();
    expect(sessions.map((s) => s.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    // Both shards are in identify bucket 0: the second process waited out the first one's 5 s.
    expect(identifyRefusedTooSoon).toBe(0);
  });

  it("hands each server's GUILD_CREATE to exactly one process", async () => {
    const held = await waitFor(async () => {
      const [a, b] = await Promise.all(procs.map(shardGuilds));
      return a.length === 1 && b.length === 1 ? [a[0], b[0]] : null;
    }, 30_000);
    expect(held.map((h) => h.shard).sort()).toEqual([0, 1]);
    for (const h of held)
      expect(h.guilds).toBe(guildIds.filter((id) => shardOfGuild(id, 2) === h.shard).length);
    expect(held[0].guilds + held[1].guilds).toBe(guildIds.length);
    // Every server has its snapshot, written by the process that holds its shard.
    await waitFor(
      async () => (await rows('select guild_id from guild_snapshots')).length === guildIds.length,
      30_000,
    );
  }, 90_000);

  it('syncs every server once when the scheduled sync runs, whichever process runs it', async () => {
    await waitFor(() => idle('sync.guild'), 60_000);
    const since = new Date();
    await runTask('syncAllGuilds');
    const synced = await waitFor(async () => {
      const scheduled = (await jobs('sync.guild', since)).filter((j) => j.data.reason === 'schedule');
      return scheduled.length >= guildIds.length && (await idle('sync.all')) ? scheduled : null;
    }, 60_000);
    expect(synced.map((j) => j.data.guildId).sort()).toEqual([...guildIds].sort());
  }, 90_000);

  it("keeps the other shard's member mirror when one process reconciles every server", async () => {
    const mirrored = async () =>
      rows<{ guild_id: string; n: number }>(
        'select guild_id, count(*)::int as n from guild_members group by guild_id order by guild_id',
      );
    // Each process filled the mirror of its own shard's servers at READY.
    const before = await waitFor(async () => {
      const filled = await rows('select guild_id from guild_member_sync where filled_at is not null');
      return filled.length === guildIds.length ? await mirrored() : null;
    }, 60_000);
    const since = new Date();
    await runTask('reconcileAllGuildMembers');
    await waitFor(
      async () => (await jobs('members.reconcile', since)).some((j) => j.state === 'completed'),
      120_000,
    );
    expect((await rows('select guild_id from guild_member_sync')).length).toBe(guildIds.length);
    expect(await mirrored()).toEqual(before);
  }, 180_000);
});
