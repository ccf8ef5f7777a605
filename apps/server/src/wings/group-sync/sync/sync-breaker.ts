import {
  discordRoleKey,
  groupRoleKey,
  planSync,
  type SyncAction,
  type SyncPlan,
  type SyncPlanInput,
} from './sync-plan.js';

/**
 * The removal circuit breaker: removals are held when they exceed both a count and a share (of the group's
 * members, of a group role's holders, or of a Discord role's holders), so one departure in a small group is
 * never held. A removal once held stays held until a manager applies it or the rules stop asking for it: the
 * breaker remembers it (`sync_held_removals`), so a later sync never judges it again by its own count.
 */
export const HOLD_ABOVE_COUNT = 5;
export const HOLD_ABOVE_SHARE = 0.1;

/** Whether the breaker holds this many removals out of this many members (or role holders). */
export function breakerHolds(removals: number, holders: number): boolean {
  return removals > HOLD_ABOVE_COUNT && removals > HOLD_ABOVE_SHARE * holders;
}

/** A remembered held removal: awaiting a decision (null), approved ('apply') or declined ('keep'). */
export type HeldDecision = 'apply' | 'keep' | null;

type Removal = Extract<SyncAction, { kind: 'remove' | 'removeGroupRole' | 'removeDiscordRole' }>;

export const isRemoval = (a: SyncAction): a is Removal =>
  a.kind === 'remove' || a.kind === 'removeGroupRole' || a.kind === 'removeDiscordRole';

/**
 * The key a held removal is stored and approved under: the VRChat user id of a group removal (as approvals
 * always were), `grole:<user>:<role>` for a group role taken, `drole:<user>:<role>` for a Discord role taken.
 */
export function heldKeyOf(a: SyncAction): string | null {
  if (a.kind === 'remove') return a.vrcUserId;
  if (a.kind === 'removeGroupRole') return `grole:${groupRoleKey(a.vrcUserId, a.roleId)}`;
  if (a.kind === 'removeDiscordRole') return `drole:${discordRoleKey(a.discordUserId, a.roleId)}`;
  return null;
}

const actionKey = (a: SyncAction) => JSON.stringify({ ...a, reason: undefined });

export interface BreakerPlan {
  /** What the rules ask, nothing held. */
  wanted: SyncPlan;
  /** What to apply now: the plan with the held removals kept, so nothing that follows from them is done. */
  plan: SyncPlan;
  /** Every removal held now: those remembered and not approved, and the new ones this sync holds. */
  held: Removal[];
  /** The removals this sync holds for the first time (to remember, and audit). */
  fresh: Removal[];
  /** Steps held with them because they follow from them (a Discord role a kept group role still grants…). */
  derived: SyncAction[];
  /** Remembered removals the rules no longer ask for (their cause went away, or they were carried out). */
  released: string[];
}

/** Groups the new removals the way the breaker counts them: the group's members, each group role, each Discord role. */
function massRemovals(input: SyncPlanInput, groupSize: number, removals: readonly Removal[]): Removal[] {
  const buckets = new Map<string, { removals: Removal[]; holders: number }>();
  const add = (bucket: string, a: Removal, holders: () => number) => {
    const entry = buckets.get(bucket) ?? { removals: [], holders: holders() };
    entry.removals.push(a);
    buckets.set(bucket, entry);
  };
  const groupMembers = [...(input.group?.members.values() ?? [])];
  for (const a of removals) {
    if (a.kind === 'remove') add('group', a, () => groupSize);
    else if (a.kind === 'removeGroupRole')
      add(`grole:${a.roleId}`, a, () => groupMembers.filter((roles) => roles.includes(a.roleId)).length);
    else add(`drole:${a.roleId}`, a, () => input.members.filter((m) => m.roleIds.includes(a.roleId)).length);
  }
  return [...buckets.values()].flatMap((b) => (breakerHolds(b.removals.length, b.holders) ? b.removals : []));
}

/**
 * Plans, holds what a manager must decide (remembered removals not yet applied, and a new mass removal), and
 * plans around it. `remembered`: the held removals stored for this server, by key, with their decision.
 */
export function planWithBreaker(
  input: SyncPlanInput,
  groupSize: number,
  remembered: ReadonlyMap<string, HeldDecision>,
): BreakerPlan {
  const wanted = planSync(input);
  const removals = wanted.actions.filter(isRemoval);
  const stillHeld = removals.filter((a) => {
    const key = heldKeyOf(a) ?? '';
    return remembered.has(key) && remembered.get(key) !== 'apply';
  });
  const fresh = massRemovals(
    input,
    groupSize,
    removals.filter((a) => !remembered.has(heldKeyOf(a) ?? '')),
  );
  const held = [...stillHeld, ...fresh];
  const asked = new Set(removals.map((a) => heldKeyOf(a) ?? ''));
  const released = [...remembered.keys()].filter((key) => !asked.has(key));
  if (held.length === 0) return { wanted, plan: wanted, held, fresh, derived: [], released };
  const keep = { members: new Set<string>(), groupRoles: new Set<string>(), discordRoles: new Set<string>() };
  for (const a of held) {
    if (a.kind === 'remove') keep.members.add(a.vrcUserId);
    else if (a.kind === 'removeGroupRole') keep.groupRoles.add(groupRoleKey(a.vrcUserId, a.roleId));
    else keep.discordRoles.add(discordRoleKey(a.discordUserId, a.roleId));
  }
  const replanned = planSync({ ...input, keep });
  // Whatever the rules do around them, nothing held is carried out.
  const heldKeys = new Set(held.map((a) => heldKeyOf(a)));
  const plan = { ...replanned, actions: replanned.actions.filter((a) => !heldKeys.has(heldKeyOf(a))) };
  const planned = new Set(plan.actions.map(actionKey));
  const derived = wanted.actions.filter(
    (a) => !(held as SyncAction[]).includes(a) && !planned.has(actionKey(a)),
  );
  return { wanted, plan, held, fresh, derived, released };
}
