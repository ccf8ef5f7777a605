import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { GatewayIntentBits } from 'discord.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, discordRole } from '../../../../test/factories.js';
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

  it('fills again after the gateway drops, catching members it was never told about', async () => {
    const seeded = await t.control('POST', `/discord/guilds/${hangout.id}/bulk-members`, { count: 30 });
    expect(seeded.status).toBe(201);
    // Silent seeding sends no events: the mirror cannot know them yet.
    expect((await mirrorIds(t, hangout.id)).length).toBeLessThan(seeded.body.memberCount);
    await t.control('POST', '/discord/gateway/disconnect');
    const leaver = seedUserIds.humans[10];
    await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${leaver}`);
    const expected = await discordMemberIds(t, hangout.id);
    await waitFor(async () => (await mirrorIds(t, hangout.id)).join() === expected.join(), 15_000);
    expect(await t.ctx.discord.getMember(hangout.id, leaver)).toBeNull();
    // The listed total (kept by the fills and the join/leave events) matches Discord's once the fill has
    // recorded it (the rows land first, the fill's count just after).
    const listed = async () =>
      (await t.inject({ method: 'GET', url: `/api/members/${hangout.id}`, session: owner.session })).json()
        .totalCount;
    await waitFor(async () => (await listed()) === expected.length, 5_000);
    expect(await listed()).toBe(expected.length);
  });

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
