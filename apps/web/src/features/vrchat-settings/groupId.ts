const GROUP_ID = /grp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The grp_ UUID inside pasted text (a group page address, say), or null when there is none. */
export function groupIdIn(text: string): string | null {
  return text.match(GROUP_ID)?.[0] ?? null;
}

export const groupPageUrl = (vrchatWebUrl: string | undefined, groupId: string) =>
  vrchatWebUrl ? `${vrchatWebUrl}/home/group/${groupId}` : undefined;
