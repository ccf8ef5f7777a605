import type { SyncAction, SyncPlanInput } from './sync-plan.js';

/**
 * Whether what the platforms show now is what `action` would have made: used for a write whose answer never
 * came back (the process stopped, the connection dropped), to tell "it landed" from "do it again". Pure.
 * Unknown (no group observed, a member not in the mirror) counts as not in place: the plan then decides again.
 */
export function actionInPlace(input: SyncPlanInput, action: SyncAction): boolean {
  const group = input.group;
  switch (action.kind) {
    case 'addDiscordRole':
    case 'removeDiscordRole': {
      const member = input.members.find((m) => m.discordUserId === action.discordUserId);
      if (!member) return false;
      return member.roleIds.includes(action.roleId) === (action.kind === 'addDiscordRole');
    }
    case 'invite':
      return !!group && (group.pendingInvites.has(action.vrcUserId) || group.members.has(action.vrcUserId));
    case 'acceptRequest':
      return !!group && group.members.has(action.vrcUserId);
    case 'remove':
      return !!group && !group.members.has(action.vrcUserId) && !group.joinRequests.has(action.vrcUserId);
    case 'addGroupRole':
      return !!group?.members.get(action.vrcUserId)?.includes(action.roleId);
    case 'removeGroupRole': {
      const roles = group?.members.get(action.vrcUserId);
      return !!roles && !roles.includes(action.roleId);
    }
  }
}
