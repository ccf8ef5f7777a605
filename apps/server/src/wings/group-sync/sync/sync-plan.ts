/**
 * The sync engine's decision: from what the server wants (links, mappings, settings) and what the platforms
 * show (Discord roles from the member mirror, the VRChat group's members, invites and join requests), the
 * smallest list of actions that makes them agree. Pure: no I/O, no clock, deterministic.
 *
 * Rules (documented in docs/sync.md):
 * - Auto roles hold exactly for the members they describe (linked; verified 18+; verified with any age
 *   verification). Group-to-Discord grants add to that; a role some rule grants is never also taken away.
 * - Only ownership-verified links receive what comes from the VRChat side (group-to-Discord grants); an
 *   unverified link is treated as holding no group role.
 * - Only ownership-verified links let Discord roles act on VRChat (invite, accept, group roles, removal): for
 *   the group an unproven link is no link (it may name a stranger's account), so its account is planned as
 *   a group member linked to nobody (Auto Remove applies as to anyone; temporary roles recorded for it end).
 * - A temporary grant ends when its cause ends: the grants the bot made (`temporaryGrants`, recorded when they
 *   landed) are taken back once no rule grants them any more (unlink, lost verification, the member left, the
 *   mapping changed or was deleted).
 * - What the removal circuit breaker holds (`keep`) stays as it is, and so does everything that follows from it.
 * - Discord to group: NoMembership beats Membership; RevokeRole beats any grant; GrantRoleTemporary takes
 *   its role back from linked members who no longer hold the Discord role, unless another mapping grants it.
 * - Auto Remove removes group members no mapping entitles to membership. Never removed or changed: the
 *   group's owner, the bot, members ranked at or above the bot (`protectedUserIds`).
 * - Nobody is invited twice: a pending invite, or an invite the product already sent (`alreadyInvited`,
 *   cleared by 'Reset Group Invites'), or a block stops it.
 * - Roles the bot may not manage (above it, purchase-only, missing permission) are never touched; a rule
 *   that needs one yields a warning instead.
 *
 * The rules live in sibling modules: sync-plan-discord-rules.ts, sync-plan-group-rules.ts; the working state
 * and the final comparison in sync-plan-state.ts; the input and output types in sync-plan-types.ts.
 */

import { applyDiscordRules } from './sync-plan-discord-rules.js';
import { applyGroupRules } from './sync-plan-group-rules.js';
import { cloneState, diffStates, observedState, provenLink } from './sync-plan-state.js';
import type {
  SyncAction,
  SyncActionKind,
  SyncPlan,
  SyncPlanInput,
  SyncReason,
  SyncWarning,
  TemporaryGrant,
} from './sync-plan-types.js';

export * from './sync-plan-types.js';

const MAX_ROUNDS = 8;

/** Why each change was made; every change to the working state records one, so rounds count changes here. */
class ChangeLog extends Map<string, SyncReason> {
  changes = 0;
  override set(key: string, reason: SyncReason): this {
    this.changes++;
    return super.set(key, reason);
  }
}

export function planSync(input: SyncPlanInput): SyncPlan {
  const warnings = new Map<string, SyncWarning>();
  const warn = (w: SyncWarning) => warnings.set(`${w.kind}:${w.subject}`, w);
  const actions: SyncAction[] = [];
  // Members are independent of each other (a member's roles and membership depend on their own state only),
  // so each converges on its own: small states, and the cost grows with the server's size, not faster.
  const grants = indexGrants(input.temporaryGrants ?? []);
  const linkedVrcIds = new Set<string>();
  for (const member of input.members) {
    // An unproven link's account is planned below, with the group members linked to nobody.
    const proven = provenLink(member);
    if (proven) linkedVrcIds.add(member.link.vrcUserId);
    const own = [
      ...(grants.discord.get(member.discordUserId) ?? []),
      ...((proven && grants.group.get(member.link.vrcUserId)) || []),
    ];
    actions.push(...planPart({ ...input, members: [member], temporaryGrants: own }, warn));
  }
  // Group members linked to nobody in the server: Auto Remove concerns them, and the temporary group roles
  // the bot gave them while they were linked (unlinked since, or gone from the server) end; with the Groups
  // feature off, only the latter.
  const group = input.group;
  if (group && (group.enabled || grants.group.size > 0)) {
    const others = new Map(
      [...group.members].filter(
        ([id]) => !linkedVrcIds.has(id) && ((group.enabled && group.autoRemove) || grants.group.has(id)),
      ),
    );
    const own = [...others.keys()].flatMap((id) => grants.group.get(id) ?? []);
    if (others.size > 0)
      actions.push(
        ...planPart(
          { ...input, members: [], group: { ...group, members: others }, temporaryGrants: own },
          warn,
        ),
      );
  }
  // Removals first (VRChat refuses to invite someone still in the group, and a removal and a new invite of one
  // person come in that order), invites, group changes, then Discord roles; stable within each. Applying
  // keeps this order within each platform and runs the two platforms side by side (sync-apply.ts).
  const phase: Record<SyncActionKind, number> = {
    remove: 0,
    invite: 1,
    acceptRequest: 2,
    addGroupRole: 2,
    removeGroupRole: 2,
    addDiscordRole: 3,
    removeDiscordRole: 3,
  };
  actions.sort((a, b) => phase[a.kind] - phase[b.kind]);
  return { actions, warnings: [...warnings.values()] };
}

function indexGrants(grants: readonly TemporaryGrant[]) {
  const discord = new Map<string, TemporaryGrant[]>();
  const group = new Map<string, TemporaryGrant[]>();
  for (const g of grants) {
    const [map, id] = g.kind === 'discordRole' ? [discord, g.discordUserId] : [group, g.vrcUserId];
    map.set(id, [...(map.get(id) ?? []), g]);
  }
  return { discord, group };
}

/** Plans a part of the server: rules applied round after round until nothing changes, then the difference. */
function planPart(input: SyncPlanInput, warn: (w: SyncWarning) => void): SyncAction[] {
  const observed = observedState(input);
  const state = cloneState(observed);
  const reasons = new ChangeLog();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = reasons.changes;
    // Discord first: a role the member is about to get may entitle them to stay in the group.
    applyDiscordRules(input, state, reasons, warn);
    if (input.group) applyGroupRules(input, input.group, state, reasons, warn);
    if (reasons.changes === before) break;
  }
  return diffStates(input, observed, state, reasons);
}
