/** Random plan inputs and a simulated executor, for the sync's property tests (sync-plan, sync-breaker). */
import fc from 'fast-check';
import { discordToGroupActions, groupToDiscordActions } from '../../../db/schema/sync.js';
import type { PlanGroup, PlanMember, SyncAction, SyncPlanInput, TemporaryGrant } from './sync-plan.js';

export const GUILD = 'g0';
export const discordRoles = ['d1', 'd2', 'd3', 'd4'];
export const groupRoleIds = ['r1', 'r2', 'r3', 'r4'];
export const vrcIds = ['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7'];
export const outsiders = ['u1', 'u2', 'u3'];

export const subset = <T>(items: readonly T[]) => fc.subarray([...items]);

export const memberArb = (i: number) =>
  fc
    .record({
      roleIds: subset(discordRoles),
      linked: fc.boolean(),
      verified: fc.boolean(),
      age: fc.constantFrom('Unverified', 'Verified', 'Plus18' as const),
    })
    .map(
      ({ roleIds, linked, verified, age }): PlanMember => ({
        discordUserId: `m${i}`,
        name: `member ${i}`,
        roleIds,
        link: linked ? { vrcUserId: vrcIds[i], vrchatName: `vrc ${i}`, verified, age } : null,
      }),
    );

export const inputArb: fc.Arbitrary<SyncPlanInput> = fc
  .record({
    members: fc.tuple(...vrcIds.map((_, i) => fc.option(memberArb(i), { nil: undefined }))),
    autoRoles: fc.record({
      linkedRoleId: fc.option(fc.constantFrom(...discordRoles), { nil: null }),
      plus18RoleId: fc.option(fc.constantFrom(...discordRoles), { nil: null }),
      ageVerifiedRoleId: fc.option(fc.constantFrom(...discordRoles), { nil: null }),
    }),
    manageableDiscord: subset(discordRoles),
    hasGroup: fc.boolean(),
    enabled: fc.boolean(),
    autoRemove: fc.boolean(),
    groupMembers: fc.array(fc.tuple(fc.constantFrom(...vrcIds, ...outsiders), subset(groupRoleIds)), {
      maxLength: 11,
    }),
    pendingInvites: subset(vrcIds),
    joinRequests: subset(vrcIds),
    alreadyInvited: subset(vrcIds),
    protectedIds: subset([...vrcIds, ...outsiders]),
    manageableGroup: subset(groupRoleIds),
    can: fc.record({ invite: fc.boolean(), remove: fc.boolean(), assignRoles: fc.boolean() }),
    d2g: fc.array(
      fc.record({
        discordRoleId: fc.option(fc.constantFrom(GUILD, ...discordRoles), { nil: null }),
        groupRoleId: fc.option(fc.constantFrom(...groupRoleIds), { nil: null }),
        action: fc.constantFrom(...discordToGroupActions),
      }),
      { maxLength: 5 },
    ),
    g2d: fc.array(
      fc.record({
        groupRoleId: fc.option(fc.constantFrom(...groupRoleIds), { nil: null }),
        discordRoleId: fc.option(fc.constantFrom(...discordRoles), { nil: null }),
        action: fc.constantFrom(...groupToDiscordActions),
      }),
      { maxLength: 4 },
    ),
    // Temporary grants recorded earlier (the member may have unlinked, left or lost verification since).
    discordGrants: fc.array(
      fc.tuple(fc.integer({ min: 0, max: vrcIds.length - 1 }), fc.constantFrom(...discordRoles)),
      { maxLength: 4 },
    ),
    groupGrants: fc.array(
      fc.tuple(fc.constantFrom(...vrcIds, ...outsiders), fc.constantFrom(...groupRoleIds)),
      { maxLength: 4 },
    ),
  })
  .map((r): SyncPlanInput => {
    const members = new Map(r.groupMembers);
    // A member is neither invited nor asking to join.
    const notMember = (id: string) => !members.has(id);
    const group: PlanGroup = {
      enabled: r.enabled,
      autoRemove: r.autoRemove,
      members,
      names: new Map(),
      pendingInvites: new Set(r.pendingInvites.filter(notMember)),
      joinRequests: new Set(r.joinRequests.filter((id) => notMember(id) && !r.pendingInvites.includes(id))),
      alreadyInvited: new Set(r.alreadyInvited),
      // Protected people (owner, bot, ranked at or above the bot) are members by definition.
      protectedUserIds: new Set(r.protectedIds.filter((id) => members.has(id))),
      manageableRoleIds: new Set(r.manageableGroup),
      can: r.can,
      discordToGroup: r.d2g,
      groupToDiscord: r.g2d,
    };
    return {
      guildId: GUILD,
      autoRoles: r.autoRoles,
      manageableDiscordRoleIds: new Set(r.manageableDiscord),
      members: r.members.filter((m): m is PlanMember => !!m),
      group: r.hasGroup ? group : null,
      temporaryGrants: [
        ...r.discordGrants.map(
          ([i, roleId]): TemporaryGrant => ({ kind: 'discordRole', discordUserId: `m${i}`, roleId }),
        ),
        ...r.groupGrants.map(
          ([vrcUserId, roleId]): TemporaryGrant => ({ kind: 'groupRole', vrcUserId, roleId }),
        ),
      ],
    };
  });

/** What the platforms look like once the actions are carried out (the executor's effect, simulated). */
export function applyActions(input: SyncPlanInput, actions: readonly SyncAction[]): SyncPlanInput {
  const members = input.members.map((m) => ({ ...m, roleIds: [...m.roleIds] }));
  const group = input.group && {
    ...input.group,
    members: new Map([...input.group.members].map(([k, v]) => [k, [...v]])),
    pendingInvites: new Set(input.group.pendingInvites),
    joinRequests: new Set(input.group.joinRequests),
    alreadyInvited: new Set(input.group.alreadyInvited),
  };
  // The records sync-apply keeps: a temporary grant that landed is recorded, a role taken drops its record.
  let grants = [...(input.temporaryGrants ?? [])];
  const sameGrant = (g: TemporaryGrant, a: SyncAction) =>
    'roleId' in a &&
    g.roleId === a.roleId &&
    (g.kind === 'discordRole'
      ? g.discordUserId === a.discordUserId
      : 'vrcUserId' in a && g.vrcUserId === a.vrcUserId);
  for (const a of actions) {
    if (a.kind === 'removeDiscordRole' || a.kind === 'removeGroupRole')
      grants = grants.filter((g) => !sameGrant(g, a));
    if (a.kind === 'remove')
      grants = grants.filter((g) => g.kind !== 'groupRole' || g.vrcUserId !== a.vrcUserId);
    if (a.kind === 'addDiscordRole' && a.reason === 'GrantRoleTemporary')
      grants.push({ kind: 'discordRole', discordUserId: a.discordUserId, roleId: a.roleId });
    if (a.kind === 'addGroupRole' && a.reason === 'GrantRoleTemporary')
      grants.push({ kind: 'groupRole', vrcUserId: a.vrcUserId, roleId: a.roleId });
  }
  for (const a of actions) {
    switch (a.kind) {
      case 'invite':
        group!.pendingInvites.add(a.vrcUserId);
        group!.alreadyInvited.add(a.vrcUserId);
        break;
      case 'acceptRequest':
        group!.joinRequests.delete(a.vrcUserId);
        group!.members.set(a.vrcUserId, []);
        break;
      case 'remove':
        group!.members.delete(a.vrcUserId);
        break;
      case 'addGroupRole':
        group!.members.get(a.vrcUserId)!.push(a.roleId);
        break;
      case 'removeGroupRole': {
        const roles = group!.members.get(a.vrcUserId)!;
        roles.splice(roles.indexOf(a.roleId), 1);
        break;
      }
      case 'addDiscordRole':
        members.find((m) => m.discordUserId === a.discordUserId)!.roleIds.push(a.roleId);
        break;
      case 'removeDiscordRole': {
        const roles = members.find((m) => m.discordUserId === a.discordUserId)!.roleIds;
        roles.splice(roles.indexOf(a.roleId), 1);
        break;
      }
    }
  }
  return { ...input, members, group, temporaryGrants: grants };
}
