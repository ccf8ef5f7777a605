import type { MemberFilter, MemberSearchField } from '../../../lib/guild-access/api/members';

export type { MemberFilter };

/** The Search By choices in words (the API keeps the spec's field names). */
export const searchFieldLabels: Record<MemberSearchField, string> = {
  DiscordName: 'Discord name',
  DiscordId: 'Discord ID',
  VrcName: 'VRChat name',
  VrcId: 'VRChat ID',
};

export const memberFilterLabels: Record<MemberFilter, string> = {
  all: 'All',
  linked: 'Linked',
  unlinked: 'Unlinked',
  unverified: 'Unverified',
};

/** A VRChat account's public profile page. */
export const vrchatProfileUrl = (vrcId: string) =>
  `https://vrchat.com/home/user/${encodeURIComponent(vrcId)}`;

export const lastLinkChange = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');
