import type {
  MemberFilter,
  MemberSearchField,
  MemberSearchResult,
} from '../../../lib/guild-access/api/members';

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

/** Whether to show the member as 18+: only through a link whose ownership is verified (else a stranger's age). */
export const shownAsAdult = (member: MemberSearchResult) =>
  member.isVerified && member.ageVerified === 'Plus18';

/** 'Age Verified' in words: '18+', 'No', or for an unproven link that its age is not the member's. */
export const ageLabel = (member: MemberSearchResult) =>
  member.vrcId && !member.isVerified
    ? 'Not verified (ownership not proven)'
    : shownAsAdult(member)
      ? '18+'
      : 'No';
