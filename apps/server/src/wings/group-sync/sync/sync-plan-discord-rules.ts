/** The plan's Discord rules (pure): auto roles and group-to-Discord grants, and their temporary grants ending. */
import { autoRoleCovers } from './auto-role-rules.js';
import type { WorkingState } from './sync-plan-state.js';
import { discordRoleKey, type SyncPlanInput, type SyncReason, type SyncWarning } from './sync-plan-types.js';

export function applyDiscordRules(
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
    want(linkedRoleId, autoRoleCovers('LinkedRole', link), 'LinkedRole');
    want(plus18RoleId, autoRoleCovers('Plus18Role', link), 'Plus18Role');
    want(ageVerifiedRoleId, autoRoleCovers('AgeVerifiedRole', link), 'AgeVerifiedRole');
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
        want(g.roleId, false, g.reason ?? 'GrantRoleTemporary');
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
