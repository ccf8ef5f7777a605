import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import type { TestApp } from '../../../../test/app.js';
import { discordRole, guildGroup } from '../../../../test/factories.js';
import { discordGroupMappings, groupDiscordMappings } from '../../../db/schema/index.js';

/** The ids the sync tests start from: the seeded Hangout server, its VRChat group, that group's roles, the users. */
export const { hangout } = seedGuildIds;
export const groupId = vrchatSeed.groupIds.hangout;
export const groupRoles = vrchatSeed.roleIds.hangout;
export const vrc = vrchatSeed.userIds;

/**
 * For tests: the Hangout's VRChat group linked with the Groups feature on, and holders of `memberRole` entitled
 * to membership (invited, or their join request accepted).
 */
export async function hangoutGroupForMembers(t: TestApp, memberRole: string): Promise<void> {
  const guildId = seedGuildIds.hangout.id;
  await guildGroup(t, {
    guildId,
    groupId: vrchatSeed.groupIds.hangout,
    name: 'VRC Hangout Official',
    enabled: true,
  });
  await t.ctx.db
    .insert(discordGroupMappings)
    .values({ guildId, discordRoleId: memberRole, groupRoleId: null, action: 'Membership' });
}

/**
 * For tests: the Hangout's group sync as the sync tests start from it: its VRChat group linked and on, the
 * Group Member role mapped to membership and to the group's Linked role for a while, the Linked Users Role set
 * (through the settings route, as an owner does).
 */
export async function hangoutGroupScene(
  t: TestApp,
  owner: { session: string },
  roles: { linkedRole: string; memberRole: string },
): Promise<void> {
  const guildId = seedGuildIds.hangout.id;
  await hangoutGroupForMembers(t, roles.memberRole);
  await t.ctx.db.insert(discordGroupMappings).values({
    guildId,
    discordRoleId: roles.memberRole,
    groupRoleId: vrchatSeed.roleIds.hangout.linked,
    action: 'GrantRoleTemporary',
  });
  const res = await t.inject({
    method: 'POST',
    url: `/api/guilds/${guildId}`,
    session: owner.session,
    payload: { autoAssignRoles: { linkedRoleId: roles.linkedRole } },
  });
  if (res.statusCode !== 200)
    throw new Error(`the Linked Users Role was not set: ${res.statusCode} ${res.body}`);
}

/** For tests: a new Discord role (`roleName`) that holders of `groupRoleId` in the Hangout's group get by `action`. */
export async function discordRoleForGroupRole(
  t: TestApp,
  groupRoleId: string,
  action: typeof groupDiscordMappings.$inferInsert.action,
  roleName: string,
): Promise<string> {
  const guildId = seedGuildIds.hangout.id;
  const discordRoleId = await discordRole(t, guildId, roleName);
  await t.ctx.db.insert(groupDiscordMappings).values({ guildId, groupRoleId, discordRoleId, action });
  return discordRoleId;
}
