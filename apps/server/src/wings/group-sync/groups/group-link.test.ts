import { seedGuildIds, vrchatAccounts, vrchatSeed } from '@vrclink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { guildGroup, rows, withOwnerApp } from '../../../../test/factories.js';

const { hangout } = seedGuildIds;
const { danceClub, hangout: hangoutGroup } = vrchatSeed.groupIds;
const bot = vrchatAccounts.bot.userId;
const botRole = {
  [danceClub]: vrchatSeed.roleIds.danceClub.bot,
  [hangoutGroup]: vrchatSeed.roleIds.hangout.bot,
};
const base = `/api/groups/${hangout.id}`;
const unknownGroup = 'grp_3f2b6c1e-0000-4000-8000-000000000000';

describe('VRChat tab: linking a group through its description (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  withOwnerApp(laxSimulator.forVrchatTestPacing, (scene) => {
    ({ t, owner } = scene);
  });
  beforeEach(async () => {
    await t.ctx.database.executeSql('delete from guild_groups');
    await t.ctx.database.executeSql('delete from group_link_codes');
  });
  // Not /control/vrchat/reset: that also drops the bot's session, and its login cooldown would stall the tests.
  afterEach(async () => {
    for (const [groupId, joinState] of [
      [danceClub, 'open'],
      [hangoutGroup, 'request'],
    ] as const) {
      await t.control('PATCH', `/vrchat/groups/${groupId}`, { joinState, description: '' });
      if ((await botStatus(groupId)) !== 'member')
        await t.control('POST', `/vrchat/groups/${groupId}/members/${bot}`, { roleIds: [botRole[groupId]] });
    }
  });

  const call = (step: 'start' | 'check' | 'join', groupId: string) =>
    t.inject({ method: 'POST', url: `${base}/link/${step}`, session: owner.session, payload: { groupId } });
  const status = async (step: 'check' | 'join', groupId: string) => {
    const res = await call(step, groupId);
    expect(res.statusCode).toBe(200);
    return res.json().status;
  };
  const describeGroup = (groupId: string, description: string) =>
    t.control('PATCH', `/vrchat/groups/${groupId}`, { description });
  const removeBot = async (groupId: string) =>
    expect((await t.control('DELETE', `/vrchat/groups/${groupId}/members/${bot}`)).status).toBe(204);
  const botStatus = async (groupId: string) => {
    const { body } = await t.control('GET', `/vrchat/groups/${groupId}`);
    return body.memberships.find((m: { userId: string }) => m.userId === bot)?.status ?? null;
  };

  describe('POST /link/start', () => {
    it('answers the group and a VRCL- code that stays the same until used', async () => {
      const res = await call('start', danceClub.toUpperCase().replace('GRP_', 'grp_'));
      expect(res.statusCode).toBe(200);
      const info = res.json();
      expect(info).toEqual({
        id: danceClub,
        name: 'Dance Club',
        iconUrl: expect.stringMatching(/^http/),
        linkCode: expect.stringMatching(/^VRCL-[A-HJKMNP-Z2-9]{8}$/),
        botAccount: { userId: bot, displayName: 'VRCLink Bot' },
      });
      expect((await call('start', danceClub)).json().linkCode).toBe(info.linkCode);
    });

    it('issues a new code once the old one is 24 hours old', async () => {
      const first = (await call('start', danceClub)).json().linkCode;
      await describeGroup(danceClub, first);
      await t.ctx.database.executeSql(
        "update group_link_codes set created_at = now() - interval '24 hours 1 minute'",
      );
      expect(await status('check', danceClub)).toBe('CodeNotFound');
      expect((await call('start', danceClub)).json().linkCode).not.toBe(first);
    });

    it.each(['grp_123', 'hello', `x${unknownGroup}`, `${unknownGroup}0`])('answers 400 to %s', async (id) => {
      const res = await call('start', id);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('Group ID must be grp_ followed by a UUID.');
    });

    it.each(['start', 'check', 'join'] as const)(
      '%s answers 404 for a group VRChat does not know',
      async (step) => {
        const res = await call(step, unknownGroup);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'VRChat group not found.' });
      },
    );

    it('answers 409 when the server already has a group, or another server holds this one', async () => {
      await guildGroup(t, { guildId: '1300000000000000099', groupId: danceClub, name: 'Dance Club' });
      const elsewhere = await call('start', danceClub);
      expect(elsewhere.statusCode).toBe(409);
      expect(elsewhere.json().message).toBe('This VRChat group is already linked to another server.');
      await guildGroup(t, { guildId: hangout.id, groupId: hangoutGroup, name: 'VRC Hangout Official' });
      const res = await call('start', danceClub);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This server already has a linked VRChat group. Unlink it first.');
    });
  });

  describe('POST /link/check and /link/join', () => {
    it('links an open group: code in the description, the bot joins, the link is stored', async () => {
      await removeBot(danceClub);
      const { linkCode } = (await call('start', danceClub)).json();
      expect(await status('check', danceClub)).toBe('CodeNotFound');
      expect(await status('join', danceClub)).toBe('CodeNotFound');
      expect(await botStatus(danceClub)).toBeNull();

      await describeGroup(danceClub, `Welcome dancers! ${linkCode.toLowerCase()}`);
      expect(await status('check', danceClub)).toBe('CodeFound');
      expect(await status('join', danceClub)).toBe('Member');
      expect(await botStatus(danceClub)).toBe('member');

      const linked = await t.inject({ method: 'GET', url: base, session: owner.session });
      expect(linked.json()).toMatchObject({
        id: danceClub,
        name: 'Dance Club',
        enabled: false,
        autoKick: false,
      });
      expect(await rows(t, 'guild_groups', 'guild_id = $1', [hangout.id])).toHaveLength(1);
      expect(await rows(t, 'group_link_codes')).toEqual([]);
      const audits = await rows(t, 'audit_log', "action = 'group.linked' and guild_id = $1", [hangout.id]);
      expect(audits.at(-1)).toMatchObject({ actor_id: owner.id, target_id: danceClub });
      // A second click answers Member again without a second link.
      expect(await status('join', danceClub)).toBe('Member');
      expect(await rows(t, 'guild_groups')).toHaveLength(1);
    });

    it('links a request-only group once its owner accepts the join request', async () => {
      await removeBot(hangoutGroup);
      const { linkCode } = (await call('start', hangoutGroup)).json();
      await describeGroup(hangoutGroup, linkCode);
      expect(await status('join', hangoutGroup)).toBe('Requested');
      expect(await botStatus(hangoutGroup)).toBe('requested');
      expect(await status('join', hangoutGroup)).toBe('Requested');
      expect(await rows(t, 'guild_groups')).toEqual([]);

      const accepted = await t.control('POST', `/vrchat/groups/${hangoutGroup}/members/${bot}`, {});
      expect(accepted.status).toBe(201);
      expect(await status('join', hangoutGroup)).toBe('Member');
      expect(await rows(t, 'guild_groups', 'group_id = $1', [hangoutGroup])).toHaveLength(1);
    });

    it('answers Invited for an invite-only group the bot is not in (it must be invited)', async () => {
      await removeBot(danceClub);
      await t.control('PATCH', `/vrchat/groups/${danceClub}`, { joinState: 'invite' });
      const { linkCode } = (await call('start', danceClub)).json();
      await describeGroup(danceClub, linkCode);
      expect(await status('join', danceClub)).toBe('Invited');
      expect(await rows(t, 'guild_groups')).toEqual([]);
    });

    it('answers Unknown when VRChat refuses (a closed group)', async () => {
      await removeBot(danceClub);
      await t.control('PATCH', `/vrchat/groups/${danceClub}`, { joinState: 'closed' });
      const { linkCode } = (await call('start', danceClub)).json();
      await describeGroup(danceClub, linkCode);
      expect(await status('join', danceClub)).toBe('Unknown');
    });

    it('answers CodeNotFound when no code was issued for this server', async () => {
      await describeGroup(danceClub, 'VRCL-ABCDEFGH');
      expect(await status('check', danceClub)).toBe('CodeNotFound');
      expect(await status('join', danceClub)).toBe('CodeNotFound');
    });

    it('refuses to link a group another server holds (409)', async () => {
      const { linkCode } = (await call('start', danceClub)).json();
      await describeGroup(danceClub, linkCode);
      await guildGroup(t, { guildId: '1300000000000000099', groupId: danceClub, name: 'Dance Club' });
      const res = await call('join', danceClub);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This VRChat group is already linked to another server.');
    });
  });
});
