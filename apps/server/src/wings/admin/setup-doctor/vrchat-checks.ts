import { VRCHAT_GROUPS_PER_ACCOUNT } from '../../../kernel/config.js';
import type { VrchatGroup, VrchatGroupMember, VrchatGroupRole } from '../../../platforms/ports.js';
import {
  type GroupNeeds,
  groupRoleRankProblem,
  neededPermissions,
  permissionLabels,
} from '../../group-sync/index.js';
import { failed, passed, type SetupCheck } from './setup-checks.js';

/** The group, the bot's membership and permissions in it, and whether its join state fits the settings. */
export function vrchatGroupChecks(
  group: (VrchatGroup & { roles: VrchatGroupRole[] }) | null,
  botId: string,
  botMember: VrchatGroupMember | null,
  needs: GroupNeeds,
  /** The display name of the bot account serving the group, when known (named in the fix). */
  botName?: string | null,
): SetupCheck[] {
  if (!group)
    return [
      failed(
        'vrchat',
        'vrchat.group',
        'Linked group',
        'VRChat no longer finds the linked group.',
        'Unlink it on the VRChat tab and link the group again.',
      ),
    ];
  const checks: SetupCheck[] = [passed('vrchat', 'vrchat.group', 'Linked group')];
  const owner = group.ownerId === botId;
  if (!owner && botMember?.membershipStatus !== 'member') {
    checks.push(
      failed(
        'vrchat',
        'vrchat.botInGroup',
        "The bot's group membership",
        "The bot's VRChat account is not a member of the linked group.",
        `Invite the bot's VRChat account ${botName ? `${botName} (${botId}) ` : ''}to the group (or accept its join request), then check again.`,
      ),
    );
    return checks;
  }
  checks.push(passed('vrchat', 'vrchat.botInGroup', "The bot's group membership"));
  const held = group.roles.filter((r) => botMember?.roleIds.includes(r.id));
  const perms = new Set(held.flatMap((r) => r.permissions));
  for (const [permission, usedBy] of neededPermissions(needs)) {
    const label = permissionLabels[permission];
    const id = `vrchat.permission.${permission}`;
    checks.push(
      owner || perms.has('*') || perms.has(permission)
        ? passed('vrchat', id, label)
        : failed(
            'vrchat',
            id,
            label,
            `The bot's role in the group lacks ${label} (${permission}), which ${usedBy} needs.`,
            `In the group's settings on VRChat, give the bot's role the ${label} permission.`,
          ),
    );
  }
  for (const roleId of needs.mappedGroupRoleIds)
    checks.push(mappedRoleCheck(group.roles, { isOwner: owner, roleIds: botMember?.roleIds ?? [] }, roleId));
  checks.push(joinStateCheck(group.joinState, needs));
  return checks;
}

/** A group role a mapping gives or takes: it must exist and rank below the bot's role (the save refuses it too). */
function mappedRoleCheck(
  roles: readonly VrchatGroupRole[],
  bot: { isOwner: boolean; roleIds: readonly string[] },
  roleId: string,
): SetupCheck {
  const id = `vrchat.groupRole.${roleId}`;
  const role = roles.find((r) => r.id === roleId);
  if (!role)
    return failed(
      'vrchat',
      id,
      `Group role ${roleId}`,
      'A role mapping gives or takes a group role that no longer exists.',
      'Choose another group role for that mapping on the VRChat tab.',
    );
  const title = `Group role ${role.name}`;
  const problem = groupRoleRankProblem(roles, bot, roleId);
  return problem
    ? failed(
        'vrchat',
        id,
        title,
        problem,
        `In the group's settings on VRChat, move the bot's role above ${role.name}, or map a lower role.`,
      )
    : passed('vrchat', id, title);
}

function joinStateCheck(joinState: VrchatGroup['joinState'], needs: GroupNeeds): SetupCheck {
  const id = 'vrchat.joinState';
  const title = 'Join state';
  const invites = needs.enabled && needs.actions.has('Membership');
  const removes = needs.enabled && (needs.autoKick || needs.actions.has('NoMembership'));
  if (invites && joinState === 'closed')
    return failed(
      'vrchat',
      id,
      title,
      'The group is closed, so members the bot invites cannot join it.',
      "Set the group's join state to Invite Only or Request to Join on VRChat.",
    );
  if (removes && joinState === 'open')
    return failed(
      'vrchat',
      id,
      title,
      'The group is open to anyone, so members the bot removes can join again at once.',
      "Set the group's join state to Request to Join or Invite Only on VRChat.",
    );
  return passed('vrchat', id, title);
}

/**
 * The bot account serving the group (each linked group is served by one account, each account serves at
 * most 100 groups): it must still be configured and within the cap.
 */
export function botAccountCheck(account: string, configured: boolean, served: number): SetupCheck {
  const label = 'The bot account serving the group';
  if (!configured)
    return failed(
      'vrchat',
      'vrchat.botAccount',
      label,
      `The VRChat bot account ${account} that serves this group is no longer configured.`,
      'Ask the operator to configure the account again, or unlink the group and link it again to give it another account.',
    );
  if (served > VRCHAT_GROUPS_PER_ACCOUNT)
    return failed(
      'vrchat',
      'vrchat.botAccount',
      label,
      `The VRChat bot account ${account} serves ${served} groups; VRChat lets an account be in at most ${VRCHAT_GROUPS_PER_ACCOUNT}.`,
      'Ask the operator to add a bot account, then unlink the group and link it again.',
    );
  return passed('vrchat', 'vrchat.botAccount', label);
}
