import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  discordRole,
  guildGroup,
  vrchatLink,
} from '../../../../test/factories.js';
import { discordGroupMappings, guildSettings } from '../../../db/schema/index.js';
import { runGuildSync } from './sync.service.js';
import { groupId, hangout, vrc } from './testing.js';

describe('what the Sync box and the setup doctor say', () => {
  let t: TestApp, owner: { session: string };
  const get = async (url: string) =>
    (
      await t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}${url}`, session: owner.session })
    ).json();

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    const role = await discordRole(t, hangout.id, 'Group Member');
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official', enabled: true });
    // Only invites are asked of the group: the bot's role may invite and nothing else.
    await t.ctx.db
      .insert(discordGroupMappings)
      .values({ guildId: hangout.id, discordRoleId: role, groupRoleId: null, action: 'Membership' });
    const invitesOnly = await t.control('POST', `/vrchat/groups/${groupId}/roles`, {
      name: 'Bot (invites only)',
      permissions: ['group-invites-manage', 'group-audit-view', 'group-members-viewall'],
    });
    await t.control('PUT', `/vrchat/groups/${groupId}/members/${vrc['VRCLink Bot']}/roles`, {
      roleIds: [invitesOnly.body.id],
    });
  });
  afterAll(() => t?.close());

  it('agree: no warning for group permissions the settings do not need', async () => {
    await runGuildSync(t.ctx, hangout.id);
    const status = await get('/sync');
    expect(status.warnings.filter((w: { kind: string }) => w.kind === 'groupPermission')).toEqual([]);
    const doctor = await get('/setup_check');
    const vrchat = doctor.checks.filter((c: { area: string }) => c.area === 'vrchat');
    expect(vrchat.every((c: { ok: boolean }) => c.ok)).toBe(true);
  });

  it('agree: both name a permission the settings need and the bot lacks', async () => {
    await t.ctx.database.executeSql(
      `update guild_groups set auto_kick = true where guild_id = '${hangout.id}'`,
    );
    await runGuildSync(t.ctx, hangout.id);
    const status = await get('/sync');
    expect(status.warnings).toContainEqual({
      kind: 'groupPermission',
      message: "The bot's role in the VRChat group lacks the permission group-members-remove.",
    });
    const doctor = await get('/setup_check');
    expect(doctor.checks).toContainEqual(
      expect.objectContaining({ id: 'vrchat.permission.group-members-remove', ok: false }),
    );
    await t.ctx.database.executeSql(
      `update guild_groups set auto_kick = false where guild_id = '${hangout.id}'`,
    );
  });

  it('shows a queued sync, when the scheduled one is due, and how long the next one takes', async () => {
    await t.ctx.database.executeSql("delete from pgboss.job where name = 'sync.guild'");
    expect((await get('/sync')).activity).toBeNull();
    const queued = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/sync`,
      session: owner.session,
    });
    expect(queued.json()).toMatchObject({ queued: true, running: false });
    const status = await get('/sync');
    expect(status.activity).toMatchObject({ state: 'queued' });
    // No process runs the scheduled tasks in this test app.
    expect(status.nextRunAt).toBeNull();
    const preview = await get('/sync/preview');
    expect(preview.estimatedSeconds).toBeGreaterThanOrEqual(preview.total);
  });

  it('audit descriptions name the role and the VRChat name, and the full-text search finds them', async () => {
    const linked = await discordRole(t, hangout.id, 'Linked Crew');
    await t.ctx.db
      .insert(guildSettings)
      .values({ guildId: hangout.id, linkedRoleId: linked })
      .onConflictDoUpdate({
        target: guildSettings.guildId,
        set: { linkedRoleId: linked },
      });
    const member = await discordMember(t, hangout.id);
    await vrchatLink(t, { discordUserId: member.id, vrcUserId: vrc['Iris Nova'], vrchatName: 'Iris Nova' });
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ failed: 0 });
    const search = await t.inject({
      method: 'GET',
      url: `/api/groups/audit_log/${hangout.id}?fullTextSearch=${encodeURIComponent('VRChat Iris Nova')}&sortBy=Description`,
      session: owner.session,
    });
    expect(search.statusCode).toBe(200);
    expect(search.json().auditLogs.map((e: { description: string }) => e.description)).toContain(
      'Gave an automatic Discord role · role Linked Crew · VRChat Iris Nova',
    );
  });
});
