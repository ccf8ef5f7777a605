import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/platforms/testing.js';
import { shardOfGuild } from '../src/wings/access/guilds/guild-snapshot.store.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { startShardingWorld } from './sharding-world.js';

const adminUrl = process.env.DATABASE_URL;

/**
 * Two bot processes against the sharding simulator on one PostgreSQL database: the shard count comes from
 * Discord's recommendation (sharding-world.ts: 2 shards), each process takes one shard, every server's
 * GUILD_CREATE reaches exactly one of them, the scheduled sync covers every server once, and a member
 * reconciliation keeps every shard's mirror.
 */
describe.skipIf(!adminUrl)('two bot processes, one gateway shard each', () => {
  let world: Awaited<ReturnType<typeof startShardingWorld>>;
  let procs: ServerProcess[] = [];

  beforeAll(async () => {
    world = await startShardingWorld(adminUrl as string);
    const shardEnv = { ...world.env, SHARDS_PER_PROCESS: '1' };
    // Both at once: they race for the shard locks and identify in the same bucket (max_concurrency 1).
    procs = await Promise.all([
      startServerProcess({ ...shardEnv, INSTANCE_NAME: 'shard-a' }),
      startServerProcess({ ...shardEnv, INSTANCE_NAME: 'shard-b' }),
    ]);
    await waitFor(async () => (await world.gateway()).sessions.length === 2, 60_000);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await world?.close();
  }, 60_000);

  const runTask = (taskName: string) => world.runTask(procs[0], 'shard-a', taskName);

  it('runs the recommended two shards, one per process, without an IDENTIFY refused as too early', async () => {
    const { sessions, identifyRefusedTooSoon } = await world.gateway();
    expect(sessions.map((s) => s.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    // Both shards are in identify bucket 0: the second process waited out the first one's 5 s.
    expect(identifyRefusedTooSoon).toBe(0);
  });

  it("hands each server's GUILD_CREATE to exactly one process", async () => {
    const { guildIds } = world;
    const held = await waitFor(async () => {
      const [a, b] = await Promise.all(procs.map(world.shardGuilds));
      return a.length === 1 && b.length === 1 ? [a[0], b[0]] : null;
    }, 30_000);
    expect(held.map((h) => h.shard).sort()).toEqual([0, 1]);
    for (const h of held)
      expect(h.guilds).toBe(guildIds.filter((id) => shardOfGuild(id, 2) === h.shard).length);
    expect(held[0].guilds + held[1].guilds).toBe(guildIds.length);
    // Every server has its snapshot, written by the process that holds its shard.
    await waitFor(
      async () => (await world.rows('select guild_id from guild_snapshots')).length === guildIds.length,
      30_000,
    );
  }, 90_000);

  it('syncs every server once when the scheduled sync runs, whichever process runs it', async () => {
    await waitFor(() => world.idle('sync.guild'), 60_000);
    const since = new Date();
    await runTask('syncAllGuilds');
    const synced = await waitFor(async () => {
      const scheduled = (await world.jobs('sync.guild', since)).filter((j) => j.data.reason === 'schedule');
      return scheduled.length >= world.guildIds.length && (await world.idle('sync.all')) ? scheduled : null;
    }, 60_000);
    expect(synced.map((j) => j.data.guildId).sort()).toEqual([...world.guildIds].sort());
  }, 90_000);

  it("keeps every shard's member mirror and reconciles each shard in its holder", async () => {
    const mirrored = async () =>
      world.rows<{ guild_id: string; n: number }>(
        'select guild_id, count(*)::int as n from guild_members group by guild_id order by guild_id',
      );
    const filledAt = async () =>
      new Map(
        (
          await world.rows<{ guild_id: string; filled_at: Date }>(
            'select guild_id, filled_at from guild_member_sync where filled_at is not null',
          )
        ).map((r) => [r.guild_id, r.filled_at.getTime()]),
      );
    // Each process filled the mirror of its own shard's servers at READY.
    const before = await waitFor(async () => {
      const filled = await filledAt();
      return filled.size === world.guildIds.length ? { filled, mirrored: await mirrored() } : null;
    }, 60_000);
    const since = new Date();
    await runTask('reconcileAllGuildMembers');
    await waitFor(
      async () => (await world.jobs('members.reconcile', since)).some((j) => j.state === 'completed'),
      120_000,
    );
    // Whichever process ran the job, the other one heard of it and reconciled its own shard's servers.
    await waitFor(async () => {
      const now = await filledAt();
      return world.guildIds.every((id) => (now.get(id) ?? 0) > (before.filled.get(id) ?? 0));
    }, 60_000);
    expect((await world.rows('select guild_id from guild_member_sync')).length).toBe(world.guildIds.length);
    expect(await mirrored()).toEqual(before.mirrored);
  }, 180_000);
});
