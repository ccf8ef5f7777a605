/**
 * The identity wing's face: what other wings use of it. Another wing imports identity only from here.
 */
export { requirePlatformAdmin } from './auth/platform-admin.js';
export { purgeExpired } from './auth/retention.js';
export { createSession } from './auth/session.service.js';
export { requestRoleConnectionUpdates } from './linked-roles/linked-roles.service.js';
export { bioHasCode, newVerificationCode } from './links/code.js';
export { findLinkByDiscord, profileUrl } from './links/links.service.js';
