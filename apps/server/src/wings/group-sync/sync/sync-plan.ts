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
 */
import type { DiscordToGroupAction, GroupToDiscordAction } from '../../../db/schema/sync.js';

export type AgeStatus = 'Unverified' | 'Verified' | 'Plus18';
export type SyncReason =
  | Exclude<DiscordToGroupAction, 'None'>
  | 'AutoRemove'
  | 'LinkedRole'
  | 'Plus18Role'
  | 'AgeVerifiedRole';

export interface PlanMember {
  discordUserId: string;
  name: string;
  roleIds: readonly string[];
  link: { vrcUserId: string; vrchatName: string; verified: boolean; age: AgeStatus } | null;
}

export interface DiscordGroupRule {
  discordRoleId: string | null;
  groupRoleId: string | null;
  action: DiscordToGroupAction;
}

export interface GroupDiscordRule {
  groupRoleId: string | null;
  discordRoleId: string | null;
  action: GroupToDiscordAction;
}

export interface PlanGroup {
  /** 'Enable Groups feature': off means no group action at all (group-to-Discord still reads the group). */
  enabled: boolean;
  /** 'Auto Remove Members without membership'. */
  autoRemove: boolean;
  /** Observed members (vrcUserId → role ids). Possibly not everyone when the group is too large to list. */
  members: ReadonlyMap<string, readonly string[]>;
  /** Display names VRChat gave for members and invitees (for messages only). */
  names: ReadonlyMap<string, string>;
  pendingInvites: ReadonlySet<string>;
  joinRequests: ReadonlySet<string>;
  /** Invites the product already sent (or found blocked): never sent again until the user resets them. */
  alreadyInvited: ReadonlySet<string>;
  /**
   * Join requests VRChat refused to accept within the last day (too many groups): left pending, with a
   * warning, until then (user id → the recorded message).
   */
  refusedJoinRequests?: ReadonlyMap<string, string>;
  /** Owner, the bot, members ranked at or above the bot. */
  protectedUserIds: ReadonlySet<string>;
  /** Group roles the bot may give and take (below its rank, not purchase-only). */
  manageableRoleIds: ReadonlySet<string>;
  can: { invite: boolean; remove: boolean; assignRoles: boolean };
  discordToGroup: readonly DiscordGroupRule[];
  groupToDiscord: readonly GroupDiscordRule[];
}

/** A role the bot gave through a GrantRoleTemporary mapping (recorded when the write landed). */
export type TemporaryGrant =
  | { kind: 'discordRole'; discordUserId: string; roleId: string }
  | { kind: 'groupRole'; vrcUserId: string; roleId: string };

/** The key of a member's Discord role in `keep.discordRoles`. */
export const discordRoleKey = (discordUserId: string, roleId: string) => `${discordUserId}:${roleId}`;

export interface SyncPlanInput {
  /** The guild id: a Discord-to-group rule on it (the @everyone entry) covers every linked member. */
  guildId: string;
  autoRoles: { linkedRoleId: string | null; plus18RoleId: string | null; ageVerifiedRoleId: string | null };
  /** Discord roles the bot may give and take. */
  manageableDiscordRoleIds: ReadonlySet<string>;
  members: readonly PlanMember[];
  group: PlanGroup | null;
  /** Temporary grants the bot made; each is taken back once no rule grants it. */
  temporaryGrants?: readonly TemporaryGrant[];
  /**
   * What the removal circuit breaker holds: these group members are not removed and these Discord roles
   * (`discordRoleKey`) not taken, and nothing that would follow from their going is planned.
   */
  keep?: { members?: ReadonlySet<string>; discordRoles?: ReadonlySet<string> };
}

export type SyncAction =
  | { kind: 'invite'; vrcUserId: string; discordUserId: string | null; reason: SyncReason }
  | { kind: 'acceptRequest'; vrcUserId: string; discordUserId: string | null; reason: SyncReason }
  | { kind: 'remove'; vrcUserId: string; discordUserId: string | null; reason: SyncReason }
  | {
      kind: 'addGroupRole';
      vrcUserId: string;
      discordUserId: string | null;
      roleId: string;
      reason: SyncReason;
    }
  | {
      kind: 'removeGroupRole';
      vrcUserId: string;
      discordUserId: string | null;
      roleId: string;
      reason: SyncReason;
    }
  | { kind: 'addDiscordRole'; discordUserId: string; roleId: string; reason: SyncReason }
  | { kind: 'removeDiscordRole'; discordUserId: string; roleId: string; reason: SyncReason };

export type SyncActionKind = SyncAction['kind'];

export interface SyncWarning {
  kind: 'discordRole' | 'groupRole' | 'groupPermission' | 'joinRefused';
  /** The role (Discord or group), the permission the bot lacks, or the refused requester's VRChat id. */
  subject: string;
  reason: SyncReason;
}

export interface SyncPlan {
  actions: SyncAction[];
  warnings: SyncWarning[];
}

/** The state the plan works on: observed, then changed by each rule until nothing changes. */
interface WorkingState {
  discordRoles: Map<string, Set<string>>;
  groupRoles: Map<string, Set<string>>;
  invited: Set<string>;
  requested: Set<string>;
}

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
    if (member.link) linkedVrcIds.add(member.link.vrcUserId);
    const own = [
      ...(grants.discord.get(member.discordUserId) ?? []),
      ...((member.link && grants.group.get(member.link.vrcUserId)) || []),
    ];
    actions.push(...planPart({ ...input, members: [member], temporaryGrants: own }, warn));
  }
  // Group members linked to nobody in the server: Auto Remove concerns them, and the temporary group roles
  // the bot gave them while they were linked (unlinked since, or gone from the server) end.
  const group = input.group;
  if (group?.enabled) {
    const others = new Map(
      [...group.members].filter(
        ([id]) => !linkedVrcIds.has(id) && (group.autoRemove || grants.group.has(id)),
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
  // person come in that order), invites, group changes, then Discord roles; stable within each.
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

function observedState(input: SyncPlanInput): WorkingState {
  const group = input.group;
  const groupRoles = new Map<string, Set<string>>();
  const invited = new Set<string>();
  const requested = new Set<string>();
  if (group) {
    // One member's part reads only their own entries; the unlinked part reads every member it was given.
    const ids =
      input.members.length > 0
        ? input.members.flatMap((m) => (m.link ? [m.link.vrcUserId] : []))
        : [...group.members.keys()];
    for (const id of ids) {
      const roles = group.members.get(id);
      if (roles) groupRoles.set(id, new Set(roles));
      if (group.pendingInvites.has(id)) invited.add(id);
      if (group.joinRequests.has(id)) requested.add(id);
    }
  }
  return {
    discordRoles: new Map(input.members.map((m) => [m.discordUserId, new Set(m.roleIds)])),
    groupRoles,
    invited,
    requested,
  };
}

function cloneState(s: WorkingState): WorkingState {
  return {
    discordRoles: new Map([...s.discordRoles].map(([k, v]) => [k, new Set(v)])),
    groupRoles: new Map([...s.groupRoles].map(([k, v]) => [k, new Set(v)])),
    invited: new Set(s.invited),
    requested: new Set(s.requested),
  };
}

/** Whether the member's current Discord roles include the rule's role (the guild id = @everyone). */
function holds(input: SyncPlanInput, state: WorkingState, discordUserId: string, roleId: string | null) {
  if (!roleId) return false;
  if (roleId === input.guildId) return true;
  return state.discordRoles.get(discordUserId)?.has(roleId) ?? false;
}

function applyGroupRules(
  input: SyncPlanInput,
  group: PlanGroup,
  state: WorkingState,
  reasons: Map<string, SyncReason>,
  warn: (w: SyncWarning) => void,
) {
  if (!group.enabled) return;
  const entitled = new Set<string>();
  const linked = input.members.filter((m) => m.link);
  const kept = input.keep?.members ?? new Set<string>();
  for (const member of linked) {
    const vrcId = member.link!.vrcUserId;
    const rulesHeld = group.discordToGroup.filter((r) =>
      holds(input, state, member.discordUserId, r.discordRoleId),
    );
    const wantIn = rulesHeld.some((r) => r.action === 'Membership');
    const wantOut = rulesHeld.some((r) => r.action === 'NoMembership');
    if (wantIn && !wantOut) entitled.add(vrcId);
    const isMember = state.groupRoles.has(vrcId);
    const isProtected = group.protectedUserIds.has(vrcId);

    if (wantOut && isMember && !isProtected) {
      // Held by the breaker: left as it is (no role changes either), until a manager decides.
      if (kept.has(vrcId)) continue;
      if (group.can.remove) {
        state.groupRoles.delete(vrcId);
        reasons.set(`remove:${vrcId}`, 'NoMembership');
      } else warn({ kind: 'groupPermission', subject: 'group-members-remove', reason: 'NoMembership' });
      continue;
    }
    if (wantIn && !wantOut && !isMember) {
      if (!group.can.invite) {
        warn({ kind: 'groupPermission', subject: 'group-invites-manage', reason: 'Membership' });
      } else if (group.refusedJoinRequests?.has(vrcId) && state.requested.has(vrcId)) {
        // VRChat refused it lately; asking again on every run would only be refused again.
        warn({ kind: 'joinRefused', subject: vrcId, reason: 'Membership' });
      } else if (state.requested.has(vrcId)) {
        state.requested.delete(vrcId);
        state.groupRoles.set(vrcId, new Set());
        reasons.set(`accept:${vrcId}`, 'Membership');
      } else if (!state.invited.has(vrcId) && !group.alreadyInvited.has(vrcId)) {
        state.invited.add(vrcId);
        reasons.set(`invite:${vrcId}`, 'Membership');
      }
    }
    const roles = state.groupRoles.get(vrcId);
    if (!roles || isProtected) continue;
    applyGroupRoleRules(group, rulesHeld, member, roles, input.temporaryGrants ?? [], reasons, warn);
  }
  // Group members linked to nobody here: the temporary roles the bot gave them end.
  const linkedIds = new Set(linked.map((m) => m.link!.vrcUserId));
  for (const g of input.temporaryGrants ?? []) {
    if (g.kind !== 'groupRole' || linkedIds.has(g.vrcUserId) || group.protectedUserIds.has(g.vrcUserId))
      continue;
    const roles = state.groupRoles.get(g.vrcUserId);
    if (!roles?.has(g.roleId) || !group.can.assignRoles || !group.manageableRoleIds.has(g.roleId)) continue;
    roles.delete(g.roleId);
    reasons.set(`grole:${g.vrcUserId}:${g.roleId}`, 'GrantRoleTemporary');
  }
  if (group.autoRemove && group.can.remove) {
    for (const vrcId of [...state.groupRoles.keys()]) {
      if (entitled.has(vrcId) || group.protectedUserIds.has(vrcId) || kept.has(vrcId)) continue;
      // A linked member NoMembership keeps out is removed above, with that reason.
      state.groupRoles.delete(vrcId);
      reasons.set(`remove:${vrcId}`, reasons.get(`remove:${vrcId}`) ?? 'AutoRemove');
    }
  } else if (group.autoRemove) {
    warn({ kind: 'groupPermission', subject: 'group-members-remove', reason: 'AutoRemove' });
  }
}

function applyGroupRoleRules(
  group: PlanGroup,
  rulesHeld: readonly DiscordGroupRule[],
  member: PlanMember,
  roles: Set<string>,
  recorded: readonly TemporaryGrant[],
  reasons: Map<string, SyncReason>,
  warn: (w: SyncWarning) => void,
) {
  const vrcId = member.link!.vrcUserId;
  const revoked = new Set<string>();
  const granted = new Map<string, SyncReason>();
  for (const r of rulesHeld) {
    if (!r.groupRoleId) continue;
    if (r.action === 'RevokeRole') revoked.add(r.groupRoleId);
    if (r.action === 'GrantRolePermanent' || r.action === 'GrantRoleTemporary') {
      if (!granted.has(r.groupRoleId) || r.action === 'GrantRolePermanent')
        granted.set(r.groupRoleId, r.action);
    }
  }
  const manageable = (roleId: string, reason: SyncReason) => {
    if (!group.can.assignRoles) {
      warn({ kind: 'groupPermission', subject: 'group-roles-assign', reason });
      return false;
    }
    if (!group.manageableRoleIds.has(roleId)) {
      warn({ kind: 'groupRole', subject: roleId, reason });
      return false;
    }
    return true;
  };
  for (const roleId of revoked) {
    if (roles.has(roleId) && manageable(roleId, 'RevokeRole')) {
      roles.delete(roleId);
      reasons.set(`grole:${vrcId}:${roleId}`, 'RevokeRole');
    }
  }
  for (const [roleId, reason] of granted) {
    if (revoked.has(roleId) || roles.has(roleId)) continue;
    if (manageable(roleId, reason)) {
      roles.add(roleId);
      reasons.set(`grole:${vrcId}:${roleId}`, reason);
    }
  }
  // Temporary grants end when the Discord role is gone (unless another held mapping still grants the role),
  // and so do the ones the bot made through a mapping since changed or deleted.
  const temporary = [
    ...group.discordToGroup.flatMap((r) =>
      r.action === 'GrantRoleTemporary' && r.groupRoleId ? [r.groupRoleId] : [],
    ),
    ...recorded.flatMap((g) => (g.kind === 'groupRole' && g.vrcUserId === vrcId ? [g.roleId] : [])),
  ];
  for (const roleId of temporary) {
    if (granted.has(roleId) || !roles.has(roleId)) continue;
    if (!group.manageableRoleIds.has(roleId) || !group.can.assignRoles) continue;
    roles.delete(roleId);
    reasons.set(`grole:${vrcId}:${roleId}`, 'GrantRoleTemporary');
  }
}

function applyDiscordRules(
  input: SyncPlanInput,
  state: WorkingState,
  reasons: Map<string, SyncReason>,
  warn: (w: SyncWarning) => void,
) {
  const { linkedRoleId, plus18RoleId, ageVerifiedRoleId } = input.autoRoles;
  const groupRules = input.group?.groupToDiscord ?? [];
  for (const member of input.members) {
    const roles = state.discordRoles.get(member.discordUserId);
    if (!roles) continue;
    const link = member.link;
    // role id → whether it should be held (true) or not (false), with the rule that decided.
    const wants = new Map<string, { hold: boolean; reason: SyncReason }>();
    const want = (roleId: string | null, hold: boolean, reason: SyncReason) => {
      if (!roleId) return;
      const prev = wants.get(roleId);
      if (prev?.hold) return; // a grant always wins
      wants.set(roleId, { hold, reason });
    };
    want(linkedRoleId, !!link, 'LinkedRole');
    want(plus18RoleId, !!link?.verified && link.age === 'Plus18', 'Plus18Role');
    want(ageVerifiedRoleId, !!link?.verified && link.age !== 'Unverified', 'AgeVerifiedRole');
    if (link) {
      // Only a proven link receives what the VRChat side grants: an unverified one holds no group role here.
      const groupRoles = link.verified ? state.groupRoles.get(link.vrcUserId) : undefined;
      for (const r of groupRules) {
        if (!r.discordRoleId || !r.groupRoleId || r.action === 'None') continue;
        const held = groupRoles?.has(r.groupRoleId) ?? false;
        if (held) want(r.discordRoleId, true, r.action);
        else if (r.action === 'GrantRoleTemporary') want(r.discordRoleId, false, r.action);
      }
    }
    // Temporary roles the bot gave end with their cause (a grant above, if any, still wins).
    for (const g of input.temporaryGrants ?? [])
      if (g.kind === 'discordRole' && g.discordUserId === member.discordUserId)
        want(g.roleId, false, 'GrantRoleTemporary');
    const keptRoles = input.keep?.discordRoles;
    for (const [roleId, { hold, reason }] of wants) {
      if (roles.has(roleId) === hold) continue;
      // Held by the breaker: the member keeps it until a manager decides.
      if (!hold && keptRoles?.has(discordRoleKey(member.discordUserId, roleId))) continue;
      if (!input.manageableDiscordRoleIds.has(roleId)) {
        warn({ kind: 'discordRole', subject: roleId, reason });
        continue;
      }
      if (hold) roles.add(roleId);
      else roles.delete(roleId);
      reasons.set(`drole:${member.discordUserId}:${roleId}`, reason);
    }
  }
}

function diffStates(
  input: SyncPlanInput,
  observed: WorkingState,
  final: WorkingState,
  reasons: Map<string, SyncReason>,
): SyncAction[] {
  const actions: SyncAction[] = [];
  const discordOf = new Map(
    input.members.filter((m) => m.link).map((m) => [m.link!.vrcUserId, m.discordUserId] as const),
  );
  const who = (vrcUserId: string) => discordOf.get(vrcUserId) ?? null;
  const reason = (key: string): SyncReason => reasons.get(key) ?? 'Membership';

  for (const vrcUserId of final.invited) {
    if (!observed.invited.has(vrcUserId))
      actions.push({
        kind: 'invite',
        vrcUserId,
        discordUserId: who(vrcUserId),
        reason: reason(`invite:${vrcUserId}`),
      });
  }
  for (const [vrcUserId, roles] of final.groupRoles) {
    const before = observed.groupRoles.get(vrcUserId);
    if (!before) {
      actions.push({
        kind: 'acceptRequest',
        vrcUserId,
        discordUserId: who(vrcUserId),
        reason: reason(`accept:${vrcUserId}`),
      });
    }
    for (const roleId of roles) {
      if (!before?.has(roleId))
        actions.push({
          kind: 'addGroupRole',
          vrcUserId,
          discordUserId: who(vrcUserId),
          roleId,
          reason: reason(`grole:${vrcUserId}:${roleId}`),
        });
    }
    for (const roleId of before ?? []) {
      if (!roles.has(roleId))
        actions.push({
          kind: 'removeGroupRole',
          vrcUserId,
          discordUserId: who(vrcUserId),
          roleId,
          reason: reason(`grole:${vrcUserId}:${roleId}`),
        });
    }
  }
  for (const vrcUserId of observed.groupRoles.keys()) {
    if (!final.groupRoles.has(vrcUserId))
      actions.push({
        kind: 'remove',
        vrcUserId,
        discordUserId: who(vrcUserId),
        reason: reason(`remove:${vrcUserId}`),
      });
  }
  for (const [discordUserId, roles] of final.discordRoles) {
    const before = observed.discordRoles.get(discordUserId) ?? new Set<string>();
    for (const roleId of roles)
      if (!before.has(roleId))
        actions.push({
          kind: 'addDiscordRole',
          discordUserId,
          roleId,
          reason: reason(`drole:${discordUserId}:${roleId}`),
        });
    for (const roleId of before)
      if (!roles.has(roleId))
        actions.push({
          kind: 'removeDiscordRole',
          discordUserId,
          roleId,
          reason: reason(`drole:${discordUserId}:${roleId}`),
        });
  }
  return actions;
}
