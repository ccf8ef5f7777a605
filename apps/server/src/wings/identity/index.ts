/**
 * The identity wing's face: what other wings use of it. Another wing imports identity only from here.
 */

export { issueLoginToken, LOGIN_TOKEN_TTL_MS } from './auth/login-token.service.js';
export { requirePlatformAdmin } from './auth/platform-admin.js';
export { createSession } from './auth/session.service.js';
export { usernameSql, usernamesOf } from './auth/user-names.js';
export { requestRoleConnectionUpdates } from './linked-roles/linked-roles.service.js';
export { bioHasCode, newVerificationCode } from './links/code.js';
export {
  forgetInviteSent,
  invitesSentThrough,
  linkedDiscordIds,
  markLinkEventsHandled,
  recordedInvitesOf,
  recordInviteSent,
  unhandledLinkEvents,
  vrchatNamesOf,
} from './links/links.reads.js';
export { findLinkByDiscord, profileUrl } from './links/links.service.js';
export type { MyDataExport, UserDataOfOtherWings } from './privacy/privacy-export.service.js';
