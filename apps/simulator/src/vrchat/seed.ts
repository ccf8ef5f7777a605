import { seedGroups, vrchatGroupIds, vrchatRoleIds } from './seed-groups.js';
import { seedUsers, userId, vrchatAccounts, vrchatUserIds } from './seed-users.js';
import type { VrchatState } from './state.js';

/**
 * The seeded VRChat world. Everything is deterministic (ids are hashes of names), so tests and the
 * product's demo mode can refer to users, groups and roles by these constants.
 */

export { vrchatAccounts, vrchatGroupIds, vrchatRoleIds, vrchatUserIds };

/** The seeded world's ids in one object (for the product's demo mode and tests). */
export const vrchatSeed = {
  userIds: vrchatUserIds,
  accounts: vrchatAccounts,
  groupIds: vrchatGroupIds,
  roleIds: vrchatRoleIds,
  /** Has status 'userblocked' for the Hangout: inviting them gives 403 "You can't invite that user." */
  blockedHangoutUserId: userId('Xeno Blitz'),
  /** Has a pending invite to the Hangout. */
  invitedHangoutUserId: userId('Nyx Ember'),
  /** Has a pending join request to the Hangout. */
  requestedHangoutUserId: userId('Pixel Panda'),
  /** Banned from the Hangout. */
  bannedHangoutUserId: userId('Vesper Lane'),
} as const;

/** Fills a fresh state with the seeded world. */
export function seedVrchat(state: VrchatState): void {
  seedUsers(state);
  seedGroups(state);
}
