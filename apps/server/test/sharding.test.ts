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

  it('without the Server Members intent, reconciles in each holder only the linked members known to be in a server', async () => {
    const { control, rows } = world;
    const [x, y] = [0, 1].map(
      (shard) => world.guildIds.find((id) => shardOfGuild(id, 2) === shard) as string,
    );
    const newUser = async (username: string) => {
      const made = await control('POST', '/discord/users', { username });
      expect(made.status).toBe(201);
      const id = (made.body as { id: string }).id;
      await rows(`insert into vrchat_links (discord_user_id, vrc_user_id, vrchat_name) values ($1, $2, $3)`, [
        id,
        `usr_${username}`,
        username,
      ]);
      return id;
    };
    // A linked member of a server on each shard, mirrored from their joins while the intent is on.
    const known = await newUser('shards.known');
    for (const guildId of [x, y])
      expect((await control('POST', `/discord/guilds/${guildId}/members`, { userId: known })).status).toBe(
        201,
      );
    const mirroredIn = async (guildId: string, userId: string) =>
      (
        await rows<{ role_ids: string[] }>(
          'select role_ids from guild_members where guild_id = $1 and user_id = $2 and left_at is null',
          [guildId, userId],
        )
      )[0];
    await waitFor(async () => (await mirroredIn(x, known)) && (await mirroredIn(y, known)), 30_000);

    // Switched off in the portal: Discord ends both sessions (4003), each process reconnects without it and
    // fills its own shard's servers in linked mode.
    const switchedAt = Date.now();
    expect((await control('PATCH', '/discord/application', { guildMembersIntent: false })).status).toBe(200);
    await waitFor(async () => {
      const synced = await rows<{ mode: string; filled_at: Date }>(
        'select mode, filled_at from guild_member_sync',
      );
      return (
        synced.length === world.guildIds.length &&
        synced.every((r) => r.mode === 'linked' && r.filled_at.getTime() > switchedAt) &&
        (await world.gateway()).sessions.length === 2
      );
    }, 120_000);

    // Now, with no member events: the known member gets a role in both servers, and another linked user
    // joins x (nothing tells the bot; only asking for every link would find them).
    const roleOn = async (guildId: string) => {
      const made = await control('POST', `/discord/guilds/${guildId}/roles`, { name: 'Linked mode' });
      const roleId = (made.body as { id: string }).id;
      expect(
        (await control('PUT', `/discord/guilds/${guildId}/members/${known}/roles/${roleId}`)).status,
      ).toBe(204);
      return roleId;
    };
    const roles = { [x]: await roleOn(x), [y]: await roleOn(y) };
    const unknown = await newUser('shards.unknown');
    expect((await control('POST', `/discord/guilds/${x}/members`, { userId: unknown })).status).toBe(201);

    const since = new Date();
    await runTask('reconcileAllGuildMembers');
    await waitFor(
      async () => (await world.jobs('members.reconcile', since)).some((j) => j.state === 'completed'),
      120_000,
    );
    // Each server's holder read the known linked member again (the shard of x in one process, y in the other).
    for (const guildId of [x, y])
      await waitFor(
        async () => (await mirroredIn(guildId, known))?.role_ids.includes(roles[guildId]),
        60_000,
      );
    expect(await mirroredIn(x, unknown)).toBeUndefined();
  }, 300_000);
});
