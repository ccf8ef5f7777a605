import { discordRoleKey, planSync, type SyncAction, type SyncPlan, type SyncPlanInput } from './sync-plan.js';

/**
 * The removal circuit breaker: removals are held when they exceed both a count and a share (of the group's
 * members, or of a Discord role's holders), so one departure in a small group is never held.
 */
export const HOLD_ABOVE_COUNT = 5;
export const HOLD_ABOVE_SHARE = 0.1;

/** Whether the breaker holds this many removals out of this many members (or role holders). */
export function breakerHolds(removals: number, holders: number): boolean {
  return removals > HOLD_ABOVE_COUNT && removals > HOLD_ABOVE_SHARE * holders;
}

/**
 * The key a held removal is stored and approved under: the VRChat user id of a group removal (as approvals
 * always were), `drole:<user>:<role>` for a Discord role taken.
 */
export function heldKeyOf(a: SyncAction): string | null {
  if (a.kind === 'remove') return a.vrcUserId;
  if (a.kind === 'removeDiscordRole') return `drole:${discordRoleKey(a.discordUserId, a.roleId)}`;
  return null;
}

const actionKey = (a: SyncAction) => JSON.stringify({ ...a, reason: undefined });

export interface BreakerPlan {
  /** What the rules ask, nothing held. */
  wanted: SyncPlan;
  /** What to apply now: the plan with the held removals kept, so nothing that follows from them is done. */
  plan: SyncPlan;
  /** The removals held for a manager's decision. */
  held: SyncAction[];
  /** Steps held with them because they follow from them (a Discord role a kept group role still grants…). */
  derived: SyncAction[];
}

/** Plans, holds a mass removal (group members, or one Discord role from many holders), and plans around it. */
export function planWithBreaker(
  input: SyncPlanInput,
  groupSize: number,
  approved: ReadonlySet<string>,
): BreakerPlan {
  const wanted = planSync(input);
  const pending = (kind: SyncAction['kind']) =>
    wanted.actions.filter((a) => a.kind === kind && !approved.has(heldKeyOf(a) ?? ''));
  const removals = pending('remove');
  const held = breakerHolds(removals.length, groupSize) ? removals : [];
  const byRole = new Map<string, SyncAction[]>();
  for (const a of pending('removeDiscordRole')) {
    if (a.kind !== 'removeDiscordRole') continue;
    byRole.set(a.roleId, [...(byRole.get(a.roleId) ?? []), a]);
  }
  for (const [roleId, taken] of byRole) {
    const holders = input.members.filter((m) => m.roleIds.includes(roleId)).length;
    if (breakerHolds(taken.length, holders)) held.push(...taken);
  }
  if (held.length === 0) return { wanted, plan: wanted, held, derived: [] };
  const plan = planSync({
    ...input,
    keep: {
      members: new Set(held.flatMap((a) => (a.kind === 'remove' ? [a.vrcUserId] : []))),
      discordRoles: new Set(
        held.flatMap((a) =>
          a.kind === 'removeDiscordRole' ? [discordRoleKey(a.discordUserId, a.roleId)] : [],
        ),
      ),
    },
  });
  const planned = new Set(plan.actions.map(actionKey));
  const derived = wanted.actions.filter((a) => !held.includes(a) && !planned.has(actionKey(a)));
  return { wanted, plan, held, derived };
}
