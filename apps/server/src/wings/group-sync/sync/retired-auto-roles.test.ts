import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  botSeesRoles,
  discordMember,
  discordRole,
  rows,
  simulatorRoles,
  vrchatLink,
} from '../../../../test/factories.js';
import { runGuildSync } from './sync.service.js';
import { hangout } from './testing.js';

describe('changing an auto role takes the old one back, or keeps it when asked', () => {
  let t: TestApp, owner: { session: string };
  let old: string, next: string, newer: string;
  const members: { id: string; username: string }[] = [];
  const save = (payload: object) =>
    t.inject({ method: 'POST', url: `/api/guilds/${hangout.id}`, session: owner.session, payload });
  const preview = (payload: object) =>
    t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/sync/preview`,
      session: owner.session,
      payload: { kind: 'autoRoles', ...payload },
    });
  /** The newest settings entry of the audit log. */
  const lastSettingsEntry = async () => {
    const all = await rows(t, 'audit_log', "action = 'guild.auto_assign_roles'");
    const newest = all
      .sort((a, b) => +new Date(a.created_at as string) - +new Date(b.created_at as string))
      .at(-1);
    return newest as { details: { summary: string } & Record<string, unknown> };
  };
  const everyoneHolds = async (roleId: string, held: boolean) => {
    for (const m of members) await botSeesRoles(t, hangout.id, m.id, (r) => r.includes(roleId) === held);
  };

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    old = await discordRole(t, hangout.id, 'Old');
    next = await discordRole(t, hangout.id, 'Next');
    newer = await discordRole(t, hangout.id, 'Newer');
    for (let i = 0; i < 3; i++) {
      const m = await discordMember(t, hangout.id, { username: `linked_${i}` });
      await vrchatLink(t, { discordUserId: m.id, vrchatName: `Linked ${i}` });
      members.push(m);
    }
    expect((await save({ autoAssignRoles: { linkedRoleId: old } })).statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    await everyoneHolds(old, true);
  });
  afterAll(() => t?.close());

  it('says in the preview who loses the old Linked Users Role, and takes it back after the save', async () => {
    const res = await preview({ autoAssignRoles: { linkedRoleId: next } });
    expect(res.json().effects).toContainEqual(
      expect.objectContaining({ roleName: 'Old', sentence: 'Old will be taken from 3 members.' }),
    );
    expect(res.json().oldRoles).toEqual([{ roleId: old, roleName: 'Old', members: 3 }]);

    expect((await save({ autoAssignRoles: { linkedRoleId: next } })).statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    for (const m of members) {
      const roles = await simulatorRoles(t, hangout.id, m.id);
      expect(roles).toContain(next);
      expect(roles).not.toContain(old);
    }
    const entry = await lastSettingsEntry();
    expect(entry.details).toMatchObject({ oldRoles: 'take', oldRoleIds: [old] });
    expect(entry.details.summary).toContain('Old taken back from its holders');
    const taken = await rows(t, 'audit_log', "action = 'role.auto.remove'");
    expect(taken).toHaveLength(3);
    // Taken over by the sync: nothing is left to take, and a second sync does nothing.
    await everyoneHolds(next, true);
    await everyoneHolds(old, false);
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0 });
  });

  it('leaves the old role on its holders when the manager keeps it, and says so in the preview and the log', async () => {
    const res = await preview({ autoAssignRoles: { linkedRoleId: newer }, oldRoles: 'keep' });
    expect(res.json().effects.map((e: { roleName: string }) => e.roleName)).toEqual(['Newer']);
    expect(res.json().oldRoles).toEqual([{ roleId: next, roleName: 'Next', members: 3 }]);

    expect((await save({ autoAssignRoles: { linkedRoleId: newer }, oldRoles: 'keep' })).statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    for (const m of members)
      expect(await simulatorRoles(t, hangout.id, m.id)).toEqual(expect.arrayContaining([next, newer]));
    const entry = await lastSettingsEntry();
    expect(entry.details).toMatchObject({ oldRoles: 'keep', oldRoleIds: [next] });
  });

  it('takes the old 18+ Verified Role back from the verified 18+ members it was given to', async () => {
    const adult = await discordMember(t, hangout.id, { username: 'adult' });
    await vrchatLink(t, { discordUserId: adult.id, vrchatName: 'Adult', plus18: true });
    expect((await save({ autoAssignRoles: { ageVerifiedPlus18RoleId: old } })).statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    await botSeesRoles(t, hangout.id, adult.id, (r) => r.includes(old));

    const res = await preview({ autoAssignRoles: { ageVerifiedPlus18RoleId: null } });
    expect(res.json().effects).toContainEqual(
      expect.objectContaining({ sentence: 'Old will be taken from 1 member.', taken: ['adult'] }),
    );
    expect((await save({ autoAssignRoles: { ageVerifiedPlus18RoleId: null } })).statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, adult.id)).not.toContain(old);
  });

  it('refuses an unknown choice with a sentence', async () => {
    const res = await save({ autoAssignRoles: { linkedRoleId: old }, oldRoles: 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Old roles must be 'take' or 'keep'.");
  });
});
