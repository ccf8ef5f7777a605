import { demo, seedGuildIds, seedUserIds, vrchatAccounts, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { rows } from '../../../../test/factories.js';
import { guildGroups, platformBudgets, platformSessions } from '../../../db/schema/index.js';

const { hangout, danceClub } = seedGuildIds;
const groups = vrchatSeed.groupIds;
const bot1 = vrchatAccounts.bot;
const bot2 = vrchatAccounts.bot2;
const [first, second] = demo.vrchatBots;

describe('several VRChat bot accounts: each linked group is served by one (against the simulators)', () => {
  let t: TestApp;
  let hangoutOwner: { session: string };
  let clubOwner: { session: string };

  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, vrchatAccounts: 2 });
    hangoutOwner = await signIn(t, { id: seedUserIds.admin, username: 'demo_admin' });
    clubOwner = await signIn(t, { id: seedUserIds.humans[4], username: 'dj_pawsome' });
  });
  afterAll(() => t?.close());

  const link = async (session: string, guildId: string, groupId: string) => {
    const call = (step: string) =>
      t.inject({ method: 'POST', url: `/api/groups/${guildId}/link/${step}`, session, payload: { groupId } });
    const start = await call('start');
    expect(start.statusCode, start.body).toBe(200);
    await t.control('PATCH', `/vrchat/groups/${groupId}`, { description: start.json().linkCode });
    const join = await call('join');
    return { start: start.json(), join: join.json(), joinStatus: join.statusCode };
  };
  const counters = async () => (await t.control('GET', '/vrchat/counters')).body;
  const resetCounters = () => t.control('DELETE', '/vrchat/counters');
  const setupCheck = async (session: string, guildId: string, id: string) => {
    const res = await t.inject({ method: 'GET', url: `/api/guilds/${guildId}/setup_check`, session });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().checks as { id: string }[]).find((c) => c.id === id);
  };
  const memberStatus = async (groupId: string, userId: string) => {
    const { body } = await t.control('GET', `/vrchat/groups/${groupId}`);
    return body.memberships.find((m: { userId: string }) => m.userId === userId)?.status ?? null;
  };

  it('links two groups to two accounts, makes each group call through its account, audits the choice', async () => {
    // The first account is in the Hangout's group already: it serves it.
    const hangoutLink = await link(hangoutOwner.session, hangout.id, groups.hangout);
    expect(hangoutLink.join).toMatchObject({ status: 'Member' });
    expect(hangoutLink.start.botAccount).toEqual({ userId: bot1.userId, displayName: 'VRCLink Bot' });

    // No account is in the Dance Club's (open) group: the one serving the fewest groups joins it.
    await t.control('DELETE', `/vrchat/groups/${groups.danceClub}/members/${bot1.userId}`);
    const clubLink = await link(clubOwner.session, danceClub.id, groups.danceClub);
    expect(clubLink.start.botAccount).toEqual({ userId: bot2.userId, displayName: 'VRCLink Bot 2' });
    expect(clubLink.join).toEqual({
      status: 'Member',
      botAccount: { userId: bot2.userId, displayName: 'VRCLink Bot 2' },
    });
    expect(await memberStatus(groups.danceClub, bot2.userId)).toBe('member');
    expect(await memberStatus(groups.danceClub, bot1.userId)).toBeNull();

    const stored = await t.ctx.db
      .select({ groupId: guildGroups.groupId, account: guildGroups.vrchatAccount })
      .from(guildGroups);
    expect(stored).toEqual(
      expect.arrayContaining([
        { groupId: groups.hangout, account: first.username },
        { groupId: groups.danceClub, account: second.username },
      ]),
    );
    const assigned = await rows(t, 'audit_log', "action = 'group.vrchat_account_assigned'");
    expect(
      assigned.map((r) => [r.guild_id, r.target_id, (r.details as { vrchatAccount: string }).vrchatAccount]),
    ).toEqual(
      expect.arrayContaining([
        [hangout.id, groups.hangout, first.username],
        [danceClub.id, groups.danceClub, second.username],
      ]),
    );

    // Each server's VRChat tab reads its group through the account serving it, and names that account.
    for (const [session, guildId, serving, idle] of [
      [hangoutOwner.session, hangout.id, bot1, bot2],
      [clubOwner.session, danceClub.id, bot2, bot1],
    ] as const) {
      await resetCounters();
      const tab = await t.inject({ method: 'GET', url: `/api/groups/${guildId}`, session });
      expect(tab.statusCode, tab.body).toBe(200);
      expect(tab.json().botAccount.userId).toBe(serving.userId);
      const byAccount = (await counters()).byAccount;
      expect(byAccount[serving.userId]?.byRoute['GET /groups/{groupId}']?.requests).toBe(1);
      expect(byAccount[idle.userId]?.byRoute['GET /groups/{groupId}']).toBeUndefined();
    }

    // Each account has its own stored session and its own budget, shared by every process.
    const sessions = await t.ctx.db.select({ name: platformSessions.name }).from(platformSessions);
    expect(sessions.map((r) => r.name)).toEqual(
      expect.arrayContaining(['vrchat', `vrchat:${second.username}`]),
    );
    const budgets = await t.ctx.db.select({ key: platformBudgets.key }).from(platformBudgets);
    expect(budgets.map((r) => r.key)).toEqual(
      expect.arrayContaining([`vrchat:${first.username}`, `vrchat:${second.username}`]),
    );

    // The setup doctor asks through the serving account too: both accounts are in their groups.
    expect(await setupCheck(clubOwner.session, danceClub.id, 'vrchat.botInGroup')).toMatchObject({
      ok: true,
    });
    expect(await setupCheck(clubOwner.session, danceClub.id, 'vrchat.botAccount')).toMatchObject({
      ok: true,
    });
    expect(await setupCheck(hangoutOwner.session, hangout.id, 'vrchat.botInGroup')).toMatchObject({
      ok: true,
    });
  });

  it('the setup doctor reports a group whose account is not in it, naming the account to invite', async () => {
    expect(
      (await t.control('DELETE', `/vrchat/groups/${groups.danceClub}/members/${bot2.userId}`)).status,
    ).toBe(204);
    expect(await setupCheck(clubOwner.session, danceClub.id, 'vrchat.botInGroup')).toMatchObject({
      ok: false,
      problem: "The bot's VRChat account is not a member of the linked group.",
      fix: `Invite the bot's VRChat account VRCLink Bot 2 (${bot2.userId}) to the group (or accept its join request), then check again.`,
    });
    // The first account being in the group does not count: it does not serve it.
    await t.control('POST', `/vrchat/groups/${groups.danceClub}/members/${bot1.userId}`, {
      roleIds: [vrchatSeed.roleIds.danceClub.bot],
    });
    expect(await setupCheck(clubOwner.session, danceClub.id, 'vrchat.botInGroup')).toMatchObject({
      ok: false,
    });
    await t.control('POST', `/vrchat/groups/${groups.danceClub}/members/${bot2.userId}`, {
      roleIds: [vrchatSeed.roleIds.danceClub.bot],
    });
    expect(await setupCheck(clubOwner.session, danceClub.id, 'vrchat.botInGroup')).toMatchObject({
      ok: true,
    });
  });

  it('gives the 101st group to the second account, and refuses when every account serves 100', async () => {
    await t.ctx.database.executeSql('delete from guild_groups');
    await t.ctx.database.executeSql('delete from group_link_codes');
    // The first account serves 100 linked groups (other servers' links, as the link flow stores them).
    const fill = (account: string, prefix: string) =>
      t.ctx.db.insert(guildGroups).values(
        Array.from({ length: 100 }, (_, i) => ({
          guildId: `${prefix}${String(i).padStart(3, '0')}`,
          groupId: `grp_00000000-0000-4000-8000-${prefix}${String(i).padStart(9, '0')}`,
          name: `Filler ${i}`,
          vrchatAccount: account,
        })),
      );
    await fill(first.username, '900');
    // The first account is a member of the Dance Club's group, yet it has no room: the second serves it.
    expect(await memberStatus(groups.danceClub, bot1.userId)).toBe('member');
    const clubLink = await link(clubOwner.session, danceClub.id, groups.danceClub);
    expect(clubLink.join).toMatchObject({ status: 'Member', botAccount: { userId: bot2.userId } });
    const [row] = await rows(t, 'guild_groups', 'guild_id = $1', [danceClub.id]);
    expect(row?.vrchat_account).toBe(second.username);

    // With both accounts at 100, a link is refused with what to do.
    await t.ctx.database.executeSql(`delete from guild_groups where guild_id = '${danceClub.id}'`);
    await fill(second.username, '901');
    const refused = await t.inject({
      method: 'POST',
      url: `/api/groups/${hangout.id}/link/start`,
      session: hangoutOwner.session,
      payload: { groupId: groups.hangout },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Every VRChat bot account already serves 100 groups. Ask the operator to add another bot account.',
    );
  });

  it("never removes another of the bot's accounts from a group it does not serve (Auto Remove)", async () => {
    await t.ctx.database.executeSql('delete from guild_groups');
    await t.ctx.db.insert(guildGroups).values({
      guildId: hangout.id,
      groupId: groups.hangout,
      name: 'VRC Hangout Official',
      enabled: true,
      autoKick: true,
    });
    // The second account is a plain member of the Hangout's group, which the first account serves.
    await t.control('POST', `/vrchat/groups/${groups.hangout}/members/${bot2.userId}`, { roleIds: [] });
    const res = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/sync/preview`,
      session: hangoutOwner.session,
    });
    expect(res.statusCode, res.body).toBe(200);
    const removed = (res.json().actions as { kind: string; targetName: string }[])
      .filter((a) => a.kind === 'remove')
      .map((a) => a.targetName);
    expect(removed.length).toBeGreaterThan(3);
    expect(removed).not.toContain('VRCLink Bot 2');
    expect(removed).not.toContain('VRCLink Bot');
  });
});
