const GROUP_ID = /grp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The grp_ UUID inside pasted text (a group page address, say), or null when there is none. */
export function groupIdIn(text: string): string | null {
  return text.match(GROUP_ID)?.[0] ?? null;
}

export const groupPageUrl = (vrchatWebUrl: string | undefined, groupId: string) =>
  vrchatWebUrl ? `${vrchatWebUrl}/home/group/${groupId}` : undefined;

/** The group's invites and join requests page on the VRChat site (where the bot's request is accepted). */
export const groupInvitesUrl = (vrchatWebUrl: string | undefined, groupId: string) =>
  vrchatWebUrl ? `${vrchatWebUrl}/home/group/${groupId}/members/invites` : undefined;

/** A VRChat user's page (the bot account a manager invites to the group). */
export const userPageUrl = (vrchatWebUrl: string | undefined, userId: string | undefined) =>
  vrchatWebUrl && userId ? `${vrchatWebUrl}/home/user/${userId}` : undefined;
