import {
  type APIApplicationRoleConnectionMetadata,
  ApplicationRoleConnectionMetadataType,
  type RESTPutAPICurrentUserApplicationRoleConnectionJSONBody,
} from 'discord.js';
import type { AgeVerification } from '../../../db/schema/links.js';

/**
 * What server owners can require of a Linked Role (Server Settings → Roles → Links in Discord): linked to
 * VRChat, ownership verified, 18+ verified, and linked for at least some days. Every value counts only a link
 * whose ownership is proven (the bio code): anyone can claim an unclaimed VRChat account.
 */
export const roleConnectionMetadata: APIApplicationRoleConnectionMetadata[] = [
  {
    type: ApplicationRoleConnectionMetadataType.BooleanEqual,
    key: 'linked',
    name: 'Linked to VRChat',
    description: 'Has linked a VRChat account',
  },
  {
    type: ApplicationRoleConnectionMetadataType.BooleanEqual,
    key: 'ownership_verified',
    name: 'Ownership verified',
    description: 'Has proven the linked VRChat account is theirs',
  },
  {
    type: ApplicationRoleConnectionMetadataType.BooleanEqual,
    key: 'age_verified',
    name: '18+ verified',
    description: 'The linked VRChat account is age verified as 18+',
  },
  {
    // "Less than or equal to N days ago": linked for at least N days.
    type: ApplicationRoleConnectionMetadataType.DatetimeLessThanOrEqual,
    key: 'linked_since',
    name: 'Linked since',
    description: 'Days since the VRChat account was linked',
  },
];

export const PLATFORM_NAME = 'VRChat';

/**
 * The user's role connection for their link. A link whose ownership is not proven counts as none: nothing
 * (not even the VRChat name) is claimed for it until it is verified.
 */
export function roleConnectionOf(
  link: { vrchatName: string; isVerified: boolean; ageVerification: AgeVerification; linkedAt: Date } | null,
): RESTPutAPICurrentUserApplicationRoleConnectionJSONBody {
  if (!link?.isVerified)
    return {
      platform_name: PLATFORM_NAME,
      metadata: { linked: '0', ownership_verified: '0', age_verified: '0' },
    };
  return {
    platform_name: PLATFORM_NAME,
    platform_username: link.vrchatName,
    metadata: {
      linked: '1',
      ownership_verified: '1',
      age_verified: link.ageVerification === 'Plus18' ? '1' : '0',
      linked_since: link.linkedAt.toISOString(),
    },
  };
}

/** Whether Discord holds these records already (it answers them in its own shape, extra fields included). */
export function sameMetadata(
  current: APIApplicationRoleConnectionMetadata[],
  wanted: APIApplicationRoleConnectionMetadata[],
): boolean {
  const view = (m: APIApplicationRoleConnectionMetadata) =>
    JSON.stringify([m.type, m.key, m.name, m.description]);
  return current.length === wanted.length && current.every((m, i) => view(m) === view(wanted[i]));
}
