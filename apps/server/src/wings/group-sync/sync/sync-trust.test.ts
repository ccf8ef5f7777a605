import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  botSeesRoles,
  discordRole,
  guildGroup,
  rows,
  signInMember,
  simulatorRoles,
  updateVrchatUser,
  vrchatLink,
  vrchatUser,
} from '../../../../test/factories.js';
import { discordGroupMappings, groupDiscordMappings, guildSettings } from '../../../db/schema/index.js';
import { linksRefreshHandler } from '../../../jobs/handlers/links-refresh.js';
import { runGuildSync } from './sync.service.js';
import { discordRoleForGroupRole, groupId, groupRoles, hangout, vrc } from './testing.js';

async function groupRolesOf(t: TestApp, vrcUserId: string) {
  const res = await t.control('GET', `/vrchat/groups/${groupId}`);
  const list = res.body.memberships as { userId: string; status: string; roleIds: string[] }[];
  return list.find((m) => m.userId === vrcUserId)?.roleIds ?? null;
}

const setVerified = (t: TestApp, discordUserId: string, verified: boolean) =>
  t.ctx.database.executeSql(
    `update vrchat_links set is_verified = ${verified} where discord_user_id = '${discordUserId}'`,
  );

describe('only proven links receive, and temporary grants end with their cause', () => {
  let t: TestApp;
  let hostRole: string;
  let adultRole: string;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official' });
    hostRole = await discordRole(t, hangout.id, 'Host');
    adultRole = await discordRole(t, hangout.id, 'Adult');
    await t.ctx.db.insert(groupDiscordMappings).values([
      {
        guildId: hangout.id,
        groupRoleId: groupRoles.eventHost,
        discordRoleId: hostRole,
        action: 'GrantRoleTemporary',
      },
      {
        guildId: hangout.id,
        groupRoleId: groupRoles.verified18,
        discordRoleId: adultRole,
        action: 'GrantRolePermanent',
      },
    ]);
  });
  afterAll(() => t?.close());

  it('gives group-to-Discord roles to a verified link only, and ends the temporary one when verification goes or at unlink', async () => {
    // Glimmer holds "Verified 18+" and "Event Host"; someone links the account without proving it is theirs.
    const claimer = await signInMember(t, hangout.id);
    await vrchatLink(t, {
      discordUserId: claimer.id,
      vrcUserId: vrc.Glimmer,
      vrchatName: 'Glimmer',
      isVerified: false,
    });
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, claimer.id)).toEqual([]);

    await setVerified(t, claimer.id, true);
    await runGuildSync(t.ctx, hangout.id);
    expect((await simulatorRoles(t, hangout.id, claimer.id))?.sort()).toEqual([hostRole, adultRole].sort());

    // Verification lost: the temporary grant ends; the permanent one is permanent.
    await botSeesRoles(t, hangout.id, claimer.id, (r) => r.includes(hostRole));
    await setVerified(t, claimer.id, false);
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, claimer.id)).toEqual([adultRole]);

    await setVerified(t, claimer.id, true);
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, claimer.id)).toContain(hostRole);
    await botSeesRoles(t, hangout.id, claimer.id, (r) => r.includes(hostRole));
    const unlink = await t.inject({ method: 'POST', url: '/api/users/unlink', session: claimer.session });
    expect(unlink.statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, claimer.id)).toEqual([adultRole]);
    expect(
      await rows(t, 'audit_log', "action = 'GrantRoleTemporary' and target_id = $1", [claimer.id]),
    ).toHaveLength(4);
  });

  it('takes the 18+ role within one refresh round once VRChat no longer says 18+, audit-logged', async () => {
    const adult = await discordRole(t, hangout.id, '18+');
    await t.ctx.db
      .insert(guildSettings)
      .values({ guildId: hangout.id, ageVerifiedPlus18RoleId: adult })
      .onConflictDoUpdate({ target: guildSettings.guildId, set: { ageVerifiedPlus18RoleId: adult } });
    const member = await signInMember(t, hangout.id);
    const account = await vrchatUser(t, { ageVerificationStatus: '18+', ageVerified: true });
    await vrchatLink(t, {
      discordUserId: member.id,
      vrcUserId: account.id,
      vrchatName: account.displayName,
      plus18: true,
    });
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, member.id)).toEqual([adult]);
    await botSeesRoles(t, hangout.id, member.id, (r) => r.includes(adult));

    await updateVrchatUser(t, account.id, { ageVerificationStatus: 'hidden', ageVerified: false });
    // Its turn in the scheduled refresh (every link comes round once a day).
    await t.ctx.database.executeSql(
      `update vrchat_links set refreshed_at = now() - interval '7 hours' where discord_user_id = '${member.id}'`,
    );
    await linksRefreshHandler.run(t.ctx, {});
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, member.id)).toEqual([]);
    expect(
      await rows(t, 'audit_log', "action = 'link.refreshed' and target_id = $1", [account.id]),
    ).toHaveLength(1);
    expect(
      await rows(t, 'audit_log', "action = 'role.auto.remove' and target_id = $1", [member.id]),
    ).toHaveLength(1);
    await t.ctx.database.executeSql(`update guild_settings set age_verified_plus18_role_id = null`);
  });

  it('ends a Discord-to-group temporary grant when its mapping changes (the old row’s role is taken) and at unlink', async () => {
    await t.ctx.database.executeSql(
      `update guild_groups set enabled = true where guild_id = '${hangout.id}'`,
    );
    const crew = await discordRole(t, hangout.id, 'Crew');
    const member = await signInMember(t, hangout.id, { roles: [crew] });
    // Kitsune Kai is in the group with "Linked".
    await vrchatLink(t, {
      discordUserId: member.id,
      vrcUserId: vrc['Kitsune Kai'],
      vrchatName: 'Kitsune Kai',
    });
    const [mapping] = await t.ctx.db
      .insert(discordGroupMappings)
      .values({
        guildId: hangout.id,
        discordRoleId: crew,
        groupRoleId: groupRoles.eventHost,
        action: 'GrantRoleTemporary',
      })
      .returning();
    await runGuildSync(t.ctx, hangout.id);
    expect((await groupRolesOf(t, vrc['Kitsune Kai']))?.sort()).toEqual(
      [groupRoles.linked, groupRoles.eventHost].sort(),
    );

    await t.ctx.db
      .update(discordGroupMappings)
      .set({ groupRoleId: groupRoles.verified18 })
      .where(eq(discordGroupMappings.id, mapping.id));
    await runGuildSync(t.ctx, hangout.id);
    expect((await groupRolesOf(t, vrc['Kitsune Kai']))?.sort()).toEqual(
      [groupRoles.linked, groupRoles.verified18].sort(),
    );

    const unlink = await t.inject({ method: 'POST', url: '/api/users/unlink', session: member.session });
    expect(unlink.statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    // "Linked" was there before the bot: it stays.
    expect(await groupRolesOf(t, vrc['Kitsune Kai'])).toEqual([groupRoles.linked]);
    expect(await rows(t, 'sync_temporary_grants', 'true')).toEqual([]);
  });
});

describe('the removal circuit breaker', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official' });
  });
  afterAll(() => t?.close());
  const status = async () =>
    (await t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}/sync`, session: owner.session })).json();

  it('holds a Discord role taken from many holders, audits the hold once, and takes it when approved', async () => {
    const role = await discordRole(t, hangout.id, 'Verified');
    const holders = [];
    for (let i = 0; i < 7; i++) holders.push(await signInMember(t, hangout.id, { roles: [role] }));
    // Made the Linked Users Role while nobody holding it is linked: the rule would take it from all 7.
    await t.ctx.db.insert(guildSettings).values({ guildId: hangout.id, linkedRoleId: role });
    const first = await runGuildSync(t.ctx, hangout.id);
    expect(first).toMatchObject({ held: 7, applied: 0 });
    for (const h of holders) expect(await simulatorRoles(t, hangout.id, h.id)).toEqual([role]);
    const held = (await status()).held;
    expect(held.count).toBe(7);
    expect(held.actions[0]).toMatchObject({ kind: 'removeDiscordRole', roleName: 'Verified' });

    await runGuildSync(t.ctx, hangout.id);
    expect(await rows(t, 'audit_log', "action = 'sync.removals_held'")).toHaveLength(1);

    const apply = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/sync/held`,
      session: owner.session,
      payload: { decision: 'apply' },
    });
    expect(apply.json()).toEqual({ count: 7 });
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ held: 0, applied: 7 });
    for (const h of holders) expect(await simulatorRoles(t, hangout.id, h.id)).toEqual([]);
    expect((await status()).held).toBeNull();
  });

  it('holds what follows from a held removal: the Discord role a kept group role grants stays', async () => {
    const host = await discordRoleForGroupRole(t, groupRoles.eventHost, 'GrantRoleTemporary', 'Event Host');
    const glimmer = await signInMember(t, hangout.id);
    await vrchatLink(t, { discordUserId: glimmer.id, vrcUserId: vrc.Glimmer, vrchatName: 'Glimmer' });
    await runGuildSync(t.ctx, hangout.id);
    expect(await simulatorRoles(t, hangout.id, glimmer.id)).toContain(host);
    await botSeesRoles(t, hangout.id, glimmer.id, (r) => r.includes(host));

    // Auto Remove with nothing entitling membership: most of the group would go, Glimmer included.
    await t.ctx.database.executeSql(
      `update guild_groups set enabled = true, auto_kick = true where guild_id = '${hangout.id}'`,
    );
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result?.held).toBeGreaterThan(5);
    expect(await groupRolesOf(t, vrc.Glimmer)).toContain(groupRoles.eventHost);
    expect(await simulatorRoles(t, hangout.id, glimmer.id)).toContain(host);
    const [entry] = await rows(
      t,
      'audit_log',
      "action = 'sync.removals_held' and details->>'heldWithThem' = '1'",
    );
    expect(entry).toBeDefined();
  });
});
