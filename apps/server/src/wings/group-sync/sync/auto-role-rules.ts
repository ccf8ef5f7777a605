/** Who each auto role is for (pure), and the grants to take back when a setting changed away from a role. */
import type { PlanMember, SyncReason, TemporaryGrant } from './sync-plan-types.js';

export type AutoRoleRule = Extract<SyncReason, 'LinkedRole' | 'Plus18Role' | 'AgeVerifiedRole'>;

/**
 * Whether an auto role's rule covers a member: the Linked Users Role any link; the 18+ Verified Role an
 * ownership-verified 18+ link; the Age Verified Role an ownership-verified link with any age verification.
 */
export function autoRoleCovers(rule: AutoRoleRule, link: PlanMember['link']): boolean {
  if (rule === 'LinkedRole') return !!link;
  if (rule === 'Plus18Role') return !!link?.verified && link.age === 'Plus18';
  return !!link?.verified && link.age !== 'Unverified';
}

/**
 * A role a setting no longer manages (changed or cleared, 'take back' chosen): the members that setting gave it
 * to, as grants the planner takes back once no rule grants the role.
 */
export function retiredRoleGrants(
  members: readonly PlanMember[],
  retired: readonly { roleId: string; rule: AutoRoleRule }[],
): TemporaryGrant[] {
  return retired.flatMap(({ roleId, rule }) =>
    members
      .filter((m) => m.roleIds.includes(roleId) && autoRoleCovers(rule, m.link))
      .map(
        (m): TemporaryGrant => ({
          kind: 'discordRole',
          discordUserId: m.discordUserId,
          roleId,
          reason: rule,
        }),
      ),
  );
}
