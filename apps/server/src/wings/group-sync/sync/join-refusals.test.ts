import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  discordMember,
  discordRole,
  rows,
  signInHangoutOwner,
  vrchatLink,
} from '../../../../test/factories.js';
import { runGuildSync } from './sync.service.js';
import { groupId, hangout, hangoutGroupForMembers } from './testing.js';

const requester = vrchatSeed.requestedHangoutUserId; // Pixel Panda asked to join the Hangout
const MESSAGE =
  'VRChat would not let Pixel Panda join the group: they are in too many groups. The bot asks again after 24 hours.';

/**
 * VRChat answers 403 "…can't join right now because they're in too many groups" to accepting the join request
 * of someone at the group limit. The sync records it once, says why on the tabs, and does not ask again on
 * every run; a day later it asks once more.
 */
describe('a join request VRChat refuses (too many groups)', () => {
  let t: TestApp;
  let session: string;
  const attempts = async () => {
    const res = await t.control('GET', '/vrchat/counters');
    const byRoute = res.body.byRoute as Record<string, { requests: number }>;
    return byRoute['PUT /groups/{groupId}/requests/{userId}']?.requests ?? 0;
  };
  const status = async () =>
    (await t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}/sync`, session })).json() as {
      warnings: { kind: string; message: string }[];
    };
  const auditActions = async () =>
    (await rows(t, 'audit_log', "guild_id = $1 and actor_id = 'bot'", [hangout.id])).map((r) => ({
      action: r.action,
      details: r.details,
    }));

  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    session = (await signInHangoutOwner(t)).session;
    const memberRole = await discordRole(t, hangout.id, 'Group Member');
    const member = await discordMember(t, hangout.id, { roles: [memberRole] });
    await vrchatLink(t, { discordUserId: member.id, vrcUserId: requester, vrchatName: 'Pixel Panda' });
    await hangoutGroupForMembers(t, memberRole);
    // Pixel Panda is at the limit: a member of one group where one is the most allowed.
    await t.control('POST', `/vrchat/groups/${vrchatSeed.groupIds.danceClub}/members/${requester}`, {});
    await t.control('PATCH', '/vrchat/config', { maxGroupsPerUser: 1 });
  });
  afterAll(() => t?.close());

  it('asks once, leaves the request pending, says why on the tab and audit-logs it once', async () => {
    const before = await attempts();
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result).toMatchObject({ failed: 1 });
    expect((await attempts()) - before).toBe(1);
    const requests = (await t.control('GET', `/vrchat/groups/${groupId}`)).body.memberships as {
      userId: string;
      status: string;
    }[];
    expect(requests.find((m) => m.userId === requester)?.status).toBe('requested');
    expect((await status()).warnings).toContainEqual({ kind: 'joinRefused', message: MESSAGE });
    const audit = await auditActions();
    expect(audit.filter((a) => a.action === 'sync.warning')).toHaveLength(1);
    expect(audit.filter((a) => a.action === 'sync.failed')).toEqual([]);
  });

  it('does not ask again on the next runs, and keeps saying why', async () => {
    const before = await attempts();
    await runGuildSync(t.ctx, hangout.id);
    await runGuildSync(t.ctx, hangout.id);
    expect((await attempts()) - before).toBe(0);
    expect((await status()).warnings).toContainEqual({ kind: 'joinRefused', message: MESSAGE });
    expect((await auditActions()).filter((a) => a.action === 'sync.warning')).toHaveLength(1);
  });

  it('asks again a day later, and accepts once VRChat lets the person in', async () => {
    await t.control('PATCH', '/vrchat/config', { maxGroupsPerUser: 100 });
    await t.ctx.database.executeSql(
      `update group_join_refusals set refused_at = now() - interval '25 hours' where vrc_user_id = '${requester}'`,
    );
    const before = await attempts();
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ failed: 0, applied: 1 });
    expect((await attempts()) - before).toBe(1);
    const memberships = (await t.control('GET', `/vrchat/groups/${groupId}`)).body.memberships as {
      userId: string;
      status: string;
    }[];
    expect(memberships.find((m) => m.userId === requester)?.status).toBe('member');
    expect((await status()).warnings.filter((w) => w.kind === 'joinRefused')).toEqual([]);
  });
});
