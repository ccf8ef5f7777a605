import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/platforms/testing.js';
import { shardOfGuild } from '../src/wings/access/guilds/guild-snapshot.store.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { startShardingWorld } from './sharding-world.js';

const adminUrl = process.env.DATABASE_URL;

/**
 * Shards taken over: "a" holds one shard (SHARDS_PER_PROCESS=1), "b" the other with room for two. "a" is
 * killed: "b" takes its shard beside its own and that shard's events flow again. "c", started later, finds
 * every shard held and stands by. "b" is killed: "c" takes one shard, the other has no holder, and the member
 * reconciliation leaves that shard's servers alone (no fill over REST, no mirror deleted).
 */
describe.skipIf(!adminUrl)('gateway shards taken over from a holder that died', () => {
  let world: Awaited<ReturnType<typeof startShardingWorld>>;
  const procs: Record<string, ServerProcess> = {};
  /** The shard "a" held, the one "b" took first. */
  let shardOfA: number;

  const start = async (name: string, perProcess: number) => {
    procs[name] = await startServerProcess({
      ...world.env,
      INSTANCE_NAME: `shard-${name}`,
      SHARDS_PER_PROCESS: String(perProcess),
    });
    return procs[name];
  };
  const heldShards = async (proc: ServerProcess) =>
    (await world.shardGuilds(proc)).map((s) => s.shard).sort();
  const sessionShards = async () =>
    (await world.gateway()).sessions.map((s) => s.shard[0]).sort((x, y) => x - y);
  const filledAt = async () =>
    new Map(
      (
        await world.rows<{ guild_id: string; filled_at: Date | null }>(
          'select guild_id, filled_at from guild_member_sync',
        )
      ).map((r) => [r.guild_id, r.filled_at?.getTime() ?? 0]),
    );

  beforeAll(async () => {
    world = await startShardingWorld(adminUrl as string);
    // One after the other, so "b" (room for both) finds one shard already held.
    const a = await start('a', 1);
    await waitFor(async () => (await world.gateway()).sessions.length === 1, 60_000);
    await start('b', 2);
    await waitFor(async () => (await world.gateway()).sessions.length === 2, 60_000);
    [shardOfA] = await waitFor(async () => {
      const held = await heldShards(a);
      return held.length === 1 ? held : null;
    }, 30_000);
    // Every server's mirror filled by its holder, so the reconciliation below has something to keep.
    await waitFor(async () => {
      const filled = await filledAt();
      return world.guildIds.every((id) => filled.get(id));
    }, 60_000);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map((p) => p.stop()));
    await world?.close();
  }, 60_000);

  it("takes the shard of a holder killed with kill -9, and that shard's role changes reach the mirror", async () => {
    const b = procs.b;
    expect(await heldShards(b)).toEqual([1 - shardOfA]);
    procs.a.kill();
    // Taken over once "b" has a session for it with every one of its servers.
    const guildsOf = (shard: number) => world.guildIds.filter((id) => shardOfGuild(id, 2) === shard).length;
    await waitFor(async () => {
      const held = await world.shardGuilds(b);
      return held.length === 2 && held.every((h) => h.guilds === guildsOf(h.shard));
    }, 60_000);
    await waitFor(async () => (await sessionShards()).join() === '0,1', 30_000);

    const guildId = world.guildIds.find((id) => shardOfGuild(id, 2) === shardOfA) as string;
    const members = `/discord/guilds/${guildId}/members`;
    const joined = await world.control('POST', members, { username: 'takeover.member', roles: [] });
    expect(joined.status).toBe(201);
    const made = await world.control('POST', `/discord/guilds/${guildId}/roles`, { name: 'Taken over' });
    expect(made.status).toBe(201);
    const userId = (joined.body as { userId: string }).userId;
    const roleId = (made.body as { id: string }).id;
    expect((await world.control('PUT', `${members}/${userId}/roles/${roleId}`)).status).toBe(204);
    await waitFor(async () => {
      const [row] = await world.rows<{ role_ids: string[] }>(
        'select role_ids from guild_members where guild_id = $1 and user_id = $2',
        [guildId, userId],
      );
      return row?.role_ids.includes(roleId);
    }, 30_000);
  }, 120_000);

  it('stands by in a process started later instead of taking a held shard back', async () => {
    const c = await start('c', 1);
    await waitFor(async () => (await world.gatewayState(c)) === 'standby', 60_000);
    expect(await heldShards(procs.b)).toEqual([0, 1]);
    expect(await heldShards(c)).toEqual([]);
    const { sessions, identifyRefusedTooSoon } = await world.gateway();
    expect(sessions.map((s) => s.shard[0]).sort()).toEqual([0, 1]);
    expect(identifyRefusedTooSoon).toBe(0);
  }, 120_000);

  it('leaves the servers of a shard nobody holds alone when the member reconciliation runs', async () => {
    const c = procs.c;
    const killedAt = Date.now();
    procs.b.kill();
    const [held] = await waitFor(async () => {
      const shards = await heldShards(c);
      return shards.length === 1 ? shards : null;
    }, 60_000);
    const ofShard = (shard: number) => world.guildIds.filter((id) => shardOfGuild(id, 2) === shard);
    // "c" filled its shard's servers at READY.
    await waitFor(async () => {
      const filled = await filledAt();
      return ofShard(held).every((id) => (filled.get(id) ?? 0) > killedAt);
    }, 60_000);
    const before = await filledAt();
    const mirrored = async () =>
      world.rows<{ guild_id: string; n: number }>(
        'select guild_id, count(*)::int as n from guild_members group by guild_id order by guild_id',
      );
    const membersBefore = await mirrored();

    const since = new Date();
    await world.runTask(c, 'shard-c', 'reconcileAllGuildMembers');
    await waitFor(
      async () => (await world.jobs('members.reconcile', since)).some((j) => j.state === 'completed'),
      120_000,
    );
    const after = await filledAt();
    for (const id of ofShard(held)) expect(after.get(id)).toBeGreaterThan(before.get(id) ?? 0);
    // Nobody holds the other shard: its servers were neither filled (over REST) nor dropped.
    for (const id of ofShard(1 - held)) expect(after.get(id)).toBe(before.get(id));
    expect(await mirrored()).toEqual(membersBefore);
  }, 240_000);
});
