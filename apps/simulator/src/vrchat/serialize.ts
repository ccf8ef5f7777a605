import { imagePaths } from './images.js';
import type { VrcAccount, VrcUser } from './state.js';

/**
 * State → the API's user shapes (User, LimitedUserSearch, CurrentUser). Field names follow the spec's
 * schemas; the contract tests reject any field the spec does not define.
 */

export const img = (base: string, path: string) => `${base}${path}`;

function avatarImages(base: string, u: VrcUser) {
  return {
    currentAvatarImageUrl: img(base, imagePaths.avatarImage(u.id)),
    currentAvatarThumbnailImageUrl: img(base, imagePaths.avatarThumbnail(u.id)),
    currentAvatarTags: [] as string[],
    profilePicOverride: u.hasProfilePic ? img(base, imagePaths.profilePic(u.id)) : '',
  };
}

/** The fields every user view starts with, in VRChat's order. */
const userHead = (u: VrcUser) => ({
  id: u.id,
  displayName: u.displayName,
  bio: u.bio,
  bioLinks: u.bioLinks,
  pronouns: u.pronouns,
});

/** GET /users/{userId} */
export function toUser(base: string, u: VrcUser) {
  const images = avatarImages(base, u);
  return {
    ...userHead(u),
    ageVerificationStatus: u.ageVerificationStatus,
    ageVerified: u.ageVerified,
    allowAvatarCopying: u.allowAvatarCopying,
    badges: [],
    ...images,
    profilePicOverrideThumbnail: images.profilePicOverride,
    userIcon: '',
    date_joined: u.dateJoined,
    developerType: u.developerType,
    friendKey: '',
    isFriend: false,
    // Presence is only shared with friends; the simulator has no friends graph, so like a
    // non-friend view the location is empty.
    location: '',
    last_activity: u.lastActivity,
    last_login: u.lastLogin,
    last_mobile: null,
    last_platform: u.lastPlatform,
    note: '',
    state: u.state,
    status: u.status,
    statusDescription: u.statusDescription,
    tags: u.tags,
  };
}

/** GET /users?search= */
export function toLimitedUserSearch(base: string, u: VrcUser) {
  const images = avatarImages(base, u);
  return {
    ...userHead(u),
    ...images,
    userIcon: '',
    developerType: u.developerType,
    isFriend: false,
    last_platform: u.lastPlatform,
    status: u.status,
    statusDescription: u.statusDescription,
    tags: u.tags,
  };
}

function obfuscate(email: string): string {
  const [local, domain] = email.split('@');
  return `${local[0]}${'*'.repeat(Math.max(local.length - 2, 1))}${local.at(-1)}@${domain}`;
}

/** GET /auth/user once logged in. */
export function toCurrentUser(base: string, u: VrcUser, account: VrcAccount) {
  const images = avatarImages(base, u);
  return {
    id: u.id,
    username: account.username,
    displayName: u.displayName,
    acceptedTOSVersion: 10,
    acceptedPrivacyVersion: 2,
    ageVerificationStatus: u.ageVerificationStatus,
    ageVerified: u.ageVerified,
    allowAvatarCopying: u.allowAvatarCopying,
    badges: [],
    bio: u.bio,
    bioLinks: u.bioLinks,
    currentAvatar: u.avatarId,
    ...images,
    profilePicOverrideThumbnail: images.profilePicOverride,
    date_joined: u.dateJoined,
    developerType: u.developerType,
    emailVerified: true,
    friendGroupNames: [],
    friendKey: '',
    friends: [],
    onlineFriends: [],
    activeFriends: [],
    offlineFriends: [],
    hasBirthday: true,
    hasEmail: true,
    hasLoggedInFromClient: true,
    hasPendingEmail: false,
    homeLocation: '',
    isAdult: true,
    isFriend: false,
    last_activity: u.lastActivity,
    last_login: u.lastLogin,
    last_mobile: null,
    last_platform: u.lastPlatform,
    obfuscatedEmail: obfuscate(account.email),
    obfuscatedPendingEmail: '',
    oculusId: '',
    pastDisplayNames: u.pastDisplayNames,
    pronouns: u.pronouns,
    pronounsHistory: [],
    state: u.state,
    status: u.status,
    statusDescription: u.statusDescription,
    statusFirstTime: false,
    statusHistory: u.statusDescription ? [u.statusDescription] : [],
    steamDetails: {},
    steamId: '',
    tags: u.tags,
    twoFactorAuthEnabled: Boolean(account.totpSecret),
    twoFactorAuthEnabledDate: account.twoFactorEnabledAt ?? null,
    unsubscribe: true,
    updated_at: u.lastActivity,
    userIcon: '',
    usesGeneratedPassword: false,
  };
}
