import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { Events, GatewayIntentBits } from 'discord.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, discordRole } from '../../../../test/factories.js';
import { metrics } from '../../../observability/metrics.js';
import { callSimulatorControl, waitFor } from '../../../platforms/testing.js';
import { reconcileAllGuildMembers } from './member-mirror.reconcile.js';
import { currentMembers, getSync, readMember } from './member-mirror.store.js';

const { hangout, danceClub } = seedGuildIds;
/** Members seeded silently (no gateway events) before the bot starts: only a fill can know them. */
const BULK = 2500;

/** The member ids the simulated Discord holds for a guild (the source of truth). */
async function discordMemberIds(t: TestApp, guildId: string): Promise<string[]> {
  const res = await t.control('GET', `/discord/guilds/${guildId}`);
  return (res.body.members as { userId: string }[]).map((m) => m.userId).sort();
}

const mirrorIds = async (t: TestApp, guildId: string) =>
  (await currentMembers(t.ctx.db, guildId)).map((m) => m.userId).sort();

/**
 * Each mirror row's version (PostgreSQL's `xmin`, which every write of the row changes), by `guild/user`:
 * how the tests count the rows a fill wrote.
 */
async function rowVersions(t: TestApp, guildIds: string[]): Promise<Map<string, string>> {
  const { rows } = await t.ctx.database.executeSql(
    'select guild_id, user_id, xmin::text as version from guild_members where guild_id = any($1::text[])',
    [guildIds],
  );
  return new Map(rows.map((r) => [`${r.guild_id}/${r.user_id}`, String(r.version)]));
}

/** Fills finished in this worker so far (every mode), from the fill-time metric. */
const fillsCounted = () =>
  metrics.memberMirrorFill
    .lines()
    .filter((l) => l.startsWith('vrclink_member_mirror_fill_seconds_count'))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

const filled = (t: TestApp, guildId: string) =>
  waitFor(async () => (await getSync(t.ctx.db, guildId))?.filledAt, 15_000);

describe('member mirror (Discord sends members only through op 8 and REST)', () => {
  let t: TestApp, owner: { id: string; session: string };
  /** What the app logged at error level. */
  const errors: { msg: string; userId?: string }[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line)) });
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forManyDiscordCalls,
      log,
      // The gateway holder asks Discord about the Server Members intent this often (60 s in production).
      bot: { intentsCheckMs: 300 },
      beforeStart: async (url) => {
        const res = await callSimulatorControl(url, 'POST', `/discord/guilds/${danceClub.id}/bulk-members`, {
          count: BULK,
          rolesPerMember: 1,
        });
        expect(res.status).toBe(201);
      },
    }));
    await filled(t, hangout.id);
    await filled(t, danceClub.id);
  });
  afterAll(() => t?.close());

  it('holds every member although GUILD_CREATE carried only the bot', async () => {
    const guild = t.platforms?.bot.client.guilds.cache.get(hangout.id);
    expect(guild?.members.cache.size).toBeLessThanOrEqual(1);
    expect(await mirrorIds(t, hangout.id)).toEqual(await discordMemberIds(t, hangout.id));
    const dance = await discordMemberIds(t, danceClub.id);
    expect(dance.length).toBeGreaterThan(BULK);
    expect(await mirrorIds(t, danceClub.id)).toEqual(dance);
    expect(await getSync(t.ctx.db, danceClub.id)).toMatchObject({ mode: 'full', memberCount: dance.length });
  });

  it('lists every member in the Members tab, and the profile and guests find them', async () => {
    const res = await t.inject({ method: 'GET', url: `/api/members/${hangout.id}`, session: owner.session });
    expect(res.json()).toMatchObject({
      totalCount: (await discordMemberIds(t, hangout.id)).length,
      linkedOnly: false,
    });
    const profile = await t.inject({ method: 'GET', url: '/api/users/profile', session: owner.session });
    expect(profile.statusCode).toBe(200);
    const ids = (profile.json().guilds as { id: string }[]).map((g) => g.id);
    expect(ids).toEqual(expect.arrayContaining([hangout.id, danceClub.id]));
    const someone = await t.ctx.discord.getMember(hangout.id, seedUserIds.humans[4]);
    const found = await t.ctx.discord.searchMembers(hangout.id, someone?.username.slice(0, 3) ?? '', 25);
    expect(found.map((m) => m.userId)).toContain(seedUserIds.humans[4]);
  });

  // How soon is the benchmarks' business; here, that the join event alone (no refill) brings the member.
  it('has a member who joins, and follows role changes, role deletion and leaving', async () => {
    const username = `mirror_join_${Date.now()}`;
    const joined = await t.control('POST', `/discord/guilds/${hangout.id}/members`, { username });
    const userId: string = joined.body.userId;
    await waitFor(async () => (await readMember(t.ctx.db, hangout.id, userId)).member, 15_000);
    const search = await t.inject({
      method: 'GET',
      url: `/api/members/${hangout.id}?searchBy=DiscordName&search=${username}`,
      session: owner.session,
    });
    expect(search.json().results.map((r: { id: string }) => r.id)).toEqual([userId]);

    const roleId = await discordRole(t, hangout.id);
    await t.control('PUT', `/discord/guilds/${hangout.id}/members/${userId}/roles/${roleId}`);
    await waitFor(
      async () => (await t.ctx.discord.getMember(hangout.id, userId))?.roles.includes(roleId),
      2000,
    );
    await t.control('DELETE', `/discord/guilds/${hangout.id}/roles/${roleId}`);
    await waitFor(
      async () => (await readMember(t.ctx.db, hangout.id, userId)).member?.roleIds.includes(roleId) === false,
      2000,
    );

    await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${userId}`);
    await waitFor(async () => (await t.ctx.discord.getMember(hangout.id, userId)) === null, 2000);
    expect(await mirrorIds(t, hangout.id)).not.toContain(userId);
    // The row is marked left, then the server's count follows (the next statement of the same event).
    const total = (await discordMemberIds(t, hangout.id)).length;
    await waitFor(async () => {
      const list = await t.inject({
        method: 'GET',
        url: `/api/members/${hangout.id}`,
        session: owner.session,
      });
      return list.json().totalCount === total;
    }, 2000);
  });

  it('logs a database error while a join is stored, and the process goes on (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Every write of the mirror fails as a database error would (the table is not there).
      await t.ctx.database.executeSql('alter table guild_members rename to guild_members_away');
      const failed = await t.control('POST', `/discord/guilds/${hangout.id}/members`, {
        username: `mirror_db_error_${Date.now()}`,
      });
      await waitFor(() =>
        errors.some((e) => e.msg === 'Members: could not store a join' && e.userId === failed.body.userId),
      );
      await t.ctx.database.executeSql('alter table guild_members_away rename to guild_members');
      // Node reports an unhandled rejection once the microtasks of the failing write have run, before any
      // timer: by now it would have been seen. The next join is stored as usual.
      const joined = await t.control('POST', `/discord/guilds/${hangout.id}/members`, {
        username: `mirror_after_error_${Date.now()}`,
      });
      await waitFor(async () => (await readMember(t.ctx.db, hangout.id, joined.body.userId)).member);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('takes a RESUME from the replayed events and refills nothing; a new session rewrites only what changed', async () => {
    const client = t.platforms!.bot.client;
    const guildIds = await t.ctx.discord.botGuildIds();
    // Made before the snapshot, so only the fill after the new session can notice them: a row that no longer
    // says what Discord says, a row of someone who is not a member, and members seeded silently (no events).
    const stale = seedUserIds.humans[12];
    await t.ctx.database.executeSql(
      "update guild_members set nickname = 'stale nickname' where guild_id = $1 and user_id = $2",
      [hangout.id, stale],
    );
    const ghost = '1999999999999999999';
    await t.ctx.database.executeSql(
      "insert into guild_members (guild_id, user_id, username) values ($1, $2, 'mirror_ghost')",
      [hangout.id, ghost],
    );
    const seeded = await t.control('POST', `/discord/guilds/${hangout.id}/bulk-members`, { count: 30 });
    expect(seeded.status).toBe(201);
    const before = await rowVersions(t, guildIds);
    const fillsBefore = fillsCounted();
    // Members Discord has that the mirror does not know yet (the 30 seeded silently among them).
    const unknown = (await discordMemberIds(t, hangout.id)).filter(
      (id) => !before.has(`${hangout.id}/${id}`),
    );
    expect(unknown.length).toBeGreaterThanOrEqual(30);

    // A resumable close (4000): discord.js resumes and Discord replays what the session missed.
    const resumed = new Promise((resolve) => client.once(Events.ShardResume, resolve));
    await t.control('POST', '/discord/gateway/disconnect', { code: 4000 });
    const joined = await t.control('POST', `/discord/guilds/${hangout.id}/members`, {
      username: `mirror_resume_${Date.now()}`,
    });
    const leaver = seedUserIds.humans[10];
    await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${leaver}`);
    await resumed;
    await waitFor(async () => (await readMember(t.ctx.db, hangout.id, joined.body.userId)).member, 15_000);
    await waitFor(async () => (await readMember(t.ctx.db, hangout.id, leaver)).member?.leftAt, 15_000);

    // Discord forgets the session (op 9): events are missed until the new one, whose READY fills again.
    const invalidatedAt = new Date();
    const ready = new Promise((resolve) => client.once(Events.ShardReady, resolve));
    await t.control('POST', '/discord/gateway/invalidate');
    await ready;
    for (const guildId of guildIds)
      await waitFor(async () => ((await getSync(t.ctx.db, guildId))?.filledAt ?? 0) > invalidatedAt, 30_000);
    await waitFor(() => fillsCounted() - fillsBefore >= guildIds.length, 15_000);
    const expected = await discordMemberIds(t, hangout.id);
    expect(await mirrorIds(t, hangout.id)).toEqual(expected);
    expect(await t.ctx.discord.getMember(hangout.id, leaver)).toBeNull();

    // One fill per server (the READY's), none for the RESUME; of the rows there before, only the stale one
    // was written again, and the ghost and the leaver are gone.
    expect(fillsCounted() - fillsBefore).toBe(guildIds.length);
    const after = await rowVersions(t, guildIds);
    const rewritten = [...before].filter(([key, version]) => after.has(key) && after.get(key) !== version);
    expect(rewritten.map(([key]) => key)).toEqual([`${hangout.id}/${stale}`]);
    expect(after.has(`${hangout.id}/${ghost}`)).toBe(false);
    expect(after.has(`${hangout.id}/${leaver}`)).toBe(false);
    const added = [...after.keys()].filter((key) => !before.has(key)).sort();
    expect(added).toEqual([...unknown, joined.body.userId].map((id) => `${hangout.id}/${id}`).sort());
    // The listed total (kept by the fills and the join/leave events) matches Discord's.
    const listed = async () =>
      (await t.inject({ method: 'GET', url: `/api/members/${hangout.id}`, session: owner.session })).json()
        .totalCount;
    await waitFor(async () => (await listed()) === expected.length, 5_000);
  }, 90_000);

  it('follows the Server Members intent being switched off and on in the portal', async () => {
    const bot = t.platforms?.bot;
    const hasIntent = () => bot?.client.options.intents.has(GatewayIntentBits.GuildMembers);
    // Off: Discord closes the session (4003), refuses the intent (4014); the bot reconnects without it.
    await t.control('PATCH', '/discord/application', { guildMembersIntent: false });
    await waitFor(() => hasIntent() === false && bot?.client.isReady(), 20_000);
    await reconcileAllGuildMembers(t.ctx);
    expect(await getSync(t.ctx.db, hangout.id)).toMatchObject({ mode: 'linked' });
    const linked = await t.inject({
      method: 'GET',
      url: `/api/members/${hangout.id}`,
      session: owner.session,
    });
    expect(linked.json()).toMatchObject({ linkedOnly: true, totalCount: 0 });

    // On again: Discord tells the bot nothing; the gateway holder's own check reconnects with it (no
    // reconciliation runs here) and the fill at READY lists every member again.
    await t.control('PATCH', '/discord/application', { guildMembersIntent: true });
    await waitFor(() => hasIntent() && bot?.client.isReady(), 20_000);
    await waitFor(async () => (await getSync(t.ctx.db, hangout.id))?.mode === 'full', 20_000);
    await waitFor(
      async () => (await mirrorIds(t, hangout.id)).join() === (await discordMemberIds(t, hangout.id)).join(),
      20_000,
    );
    // One client on the gateway all along: no connection of an earlier login came back to resume the
    // session beside the new one (they would close each other, 4000, and crash discord.js's RESUMED).
    const gateway = await t.control('GET', '/discord/gateway');
    expect(gateway.body).toMatchObject({ resumedElsewhere: 0 });
    expect(gateway.body.sessions).toHaveLength(1);
  });
});
