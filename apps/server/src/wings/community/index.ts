/**
 * The community wing's face: what other wings use of it. Another wing imports community only from here.
 */
export { previewGuestRoleChange } from './guests/guest-role-preview.js';
export { guestDataOf, vrchatOnlyGuestsOf } from './guests/guests.reads.js';
export { removeGuestsOfUser } from './guests/guests.reconcile.js';
export {
  assignableRoleProblem,
  EVERYONE_NOT_A_CHOICE,
  roleUnavailable,
  unknownRole,
} from './guild-settings/assignable-role.js';
export { guestRoleEntriesOf } from './guild-settings/guest-roles.service.js';
export { guestCount, oldRolesChoice } from './guild-settings/guild-settings.schemas.js';
export { guildSettingsOf } from './guild-settings/guild-settings.service.js';
export {
  clearRetiredAutoRoles,
  type RetiredAutoRole,
  rolesLeftBy,
} from './guild-settings/retired-auto-roles.js';
