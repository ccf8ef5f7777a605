import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, guildGroup } from '../../../../test/factories.js';
import { followGroupAuditLogs } from './group-audit-follow.js';

const { hangout, danceClub } = seedGuildIds;
const groups = vrchatSeed.groupIds;
const vrc = vrchatSeed.userIds;
const AUDIT_VIEW_MISSING =
  "The bot's role in the VRChat group lacks the permission group-audit-view, so changes made in the group by hand reach Discord only at the next scheduled sync.";

describe('following groups when one of them refuses the bot its audit log', () => {
  let t: TestApp, owner: { session: string };
  const tick = () => new Promise((r) => setTimeout(r, 20));
  const followState = async (guildId: string) =>
    (
      await t.ctx.database.executeSql(
        'select follow_failures, follow_error, follow_retry_at from guild_sync_state where guild_id = $1',
        [guildId],
      )
    ).rows[0] as { follow_failures: number; follow_error: string | null; follow_retry_at: Date | null };

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    await guildGroup(t, { guildId: hangout.id, groupId: groups.hangout, name: 'VRC Hangout Official' });
    await guildGroup(t, { guildId: danceClub.id, groupId: groups.danceClub, name: 'Dance Club' });
    await t.ctx.database.executeSql('update guild_groups set enabled = true');
    // In the Hangout group the bot's only role lacks group-audit-view (VRChat answers 403).
    const role = await t.control('POST', `/vrchat/groups/${groups.hangout}/roles`, {
      name: 'Bot without audit',
      permissions: ['group-roles-assign', 'group-invites-manage', 'group-members-remove'],
    });
    expect(role.status).toBe(201);
    const put = await t.control(
      'PUT',
      `/vrchat/groups/${groups.hangout}/members/${vrc['VRCLink Bot']}/roles`,
      {
        roleIds: [role.body.id],
      },
    );
    expect(put.status).toBe(200);
  });
  afterAll(() => t?.close());

  it('follows the other groups, records the failure for its server and retries it on a backoff', async () => {
    expect(await followGroupAuditLogs(t.ctx)).toBe(0); // the first poll starts the cursors
    await tick();
    await t.control('POST', `/vrchat/groups/${groups.danceClub}/members/${vrc['Echo Lumen']}/leave`);
    await tick();
    // The Hangout group answers 403; Dance Club's leave still asks for its sync.
    expect(await followGroupAuditLogs(t.ctx)).toBe(1);
    const failed = await followState(hangout.id);
    expect(failed).toMatchObject({ follow_failures: 1, follow_error: AUDIT_VIEW_MISSING });
    expect(new Date(failed.follow_retry_at as Date).getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect((await followState(danceClub.id)).follow_failures).toBe(0);

    // Within the backoff the group is not asked again (the count stays at one failure).
    await followGroupAuditLogs(t.ctx);
    expect((await followState(hangout.id)).follow_failures).toBe(1);

    // The Sync box and the setup doctor say the same.
    const status = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/sync`,
      session: owner.session,
    });
    expect(status.json().warnings).toContainEqual({ kind: 'groupFollow', message: AUDIT_VIEW_MISSING });
    const doctor = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/setup_check`,
      session: owner.session,
    });
    expect(doctor.json().checks).toContainEqual(
      expect.objectContaining({ id: 'vrchat.follow', ok: false, problem: AUDIT_VIEW_MISSING }),
    );

    // Permission given back, backoff over: the next poll clears the failure.
    await t.control('PUT', `/vrchat/groups/${groups.hangout}/members/${vrc['VRCLink Bot']}/roles`, {
      roleIds: [vrchatSeed.roleIds.hangout.bot],
    });
    await t.ctx.database.executeSql(
      `update guild_sync_state set follow_retry_at = now() - interval '1 second' where guild_id = $1`,
      [hangout.id],
    );
    await followGroupAuditLogs(t.ctx);
    expect(await followState(hangout.id)).toMatchObject({ follow_failures: 0, follow_error: null });
    const after = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/sync`,
      session: owner.session,
    });
    expect(after.json().warnings).not.toContainEqual(expect.objectContaining({ kind: 'groupFollow' }));
  });

  it("asks for a sync when a group role's permissions change (a missing permission given to the bot)", async () => {
    await followGroupAuditLogs(t.ctx);
    await tick();
    const bot = vrchatSeed.roleIds.danceClub.bot;
    const res = await t.control('PATCH', `/vrchat/groups/${groups.danceClub}/roles/${bot}`, {
      permissions: ['group-roles-assign', 'group-invites-manage', 'group-members-remove', 'group-audit-view'],
    });
    expect(res.status).toBe(200);
    await tick();
    expect(await followGroupAuditLogs(t.ctx)).toBe(1);
  });
});
