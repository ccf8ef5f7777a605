/**
 * The access wing's face: what other wings use of it. Another wing imports access only from here.
 */
export { API_KEY_ACTOR } from './api-keys/api-key-actor.js';
export {
  apiKeyNameOfActorSql,
  apiKeyNameSql,
  apiKeyNamesOf,
  memberNamesOf,
} from './api-keys/api-key-names.js';
export { memberGuildsOf } from './guilds/guilds.service.js';
export {
  type LinkedMemberRow,
  linkedMemberPage,
  type MemberFilter as LinkedMemberFilter,
} from './members/linked-member-page.js';
export { memberLinked, mirrorDeps } from './members/member-mirror.events.js';
export {
  ensureFilled,
  fillGuild,
  freshenLinkedMirror,
  type MirrorDeps,
  refreshLinkedUser,
} from './members/member-mirror.fill.js';
export { memberMirrorDiscord } from './members/member-mirror.port.js';
export { guildMemberCounts, linkedMembersOf } from './members/member-mirror.reads.js';
export {
  currentGuildIdsOf,
  currentPeopleWithLinks,
  escapeLike,
  getSync,
  linkedOnlyGuildIds,
  mirrorRoleChange,
} from './members/member-mirror.store.js';
export { BOT_NOT_IN_GUILD, requireGuildPermission } from './permissions/access.service.js';
export { guildPermissionValues } from './permissions/guild-permissions.js';
export { accessRowsOfUser } from './user-data.js';
