/**
 * The kinds of events 'Logging to Discord' can post, and which audit actions belong to each. The audit log
 * keeps every action; a server picks kinds, not single actions, so a new action only needs a line here.
 */
export const logEventTypes = [
  'links',
  'verifications',
  'roleChanges',
  'groupSync',
  'settings',
  'failures',
] as const;
export type LogEventType = (typeof logEventTypes)[number];

/** The embed's title for each kind (also the dialog's checkbox labels). */
export const logEventTitles: Record<LogEventType, string> = {
  links: 'Links and unlinks',
  verifications: 'Verifications',
  roleChanges: 'Role changes by the bot',
  groupSync: 'Group sync and held removals',
  settings: 'Settings changes',
  failures: 'Problems the bot could not fix',
};

/** Embed colours: Discord's palette (blurple, green, yellow, fuchsia, grey, red). */
export const logEventColors: Record<LogEventType, number> = {
  links: 0x5865f2,
  verifications: 0x57f287,
  roleChanges: 0xfee75c,
  groupSync: 0xeb459e,
  settings: 0x99aab5,
  failures: 0xed4245,
};

const byAction: Record<string, LogEventType> = {
  'link.created': 'links',
  'link.removed': 'links',
  'link.moved_away': 'links',
  'link.verified': 'verifications',
  'role.auto.add': 'roleChanges',
  'role.auto.remove': 'roleChanges',
  'guest.assigned': 'roleChanges',
  'guest.role_restored': 'roleChanges',
  'guest.revoked_host_lost_role': 'roleChanges',
  Membership: 'groupSync',
  NoMembership: 'groupSync',
  RevokeRole: 'groupSync',
  'sync.removals_held': 'groupSync',
  'sync.removals_approved': 'groupSync',
  'sync.removals_discarded': 'groupSync',
  'sync.removals_reviewed': 'groupSync',
  'sync.takeover_undone': 'groupSync',
  'sync.takeover_not_undone': 'groupSync',
  'sync.removals_released': 'groupSync',
  'sync.warning': 'failures',
  'sync.failed': 'failures',
  'guest.assign_failed': 'failures',
  'guild.auto_assign_roles': 'settings',
  'guild.contact_email': 'settings',
  'guest_role.create': 'settings',
  'guest_role.update': 'settings',
  'guest_role.delete': 'settings',
  'mapping.created': 'settings',
  'mapping.updated': 'settings',
  'mapping.deleted': 'settings',
  'group.linked': 'settings',
  'group.vrchat_account_assigned': 'settings',
  'group.unlinked': 'settings',
  'group.settings': 'settings',
  'permissions.set': 'settings',
  'permissions.delete': 'settings',
  'api_key.create': 'settings',
  'api_key.delete': 'settings',
  'world.create': 'settings',
  'world.update': 'settings',
  'world.roles': 'settings',
  'world.delete': 'settings',
  'discord_logging.config': 'settings',
};

/** Every action posted (the sync's GrantRole* rules besides), for tests. */
export const postedActions = Object.keys(byAction);

/**
 * The kind an audit entry is posted as, or null when it is never posted (logins, SDK tokens, sync requests).
 * The sync logs Discord and group role grants under the same rule names: `details.kind` tells them apart.
 */
export function logEventTypeOf(
  action: string,
  details?: Record<string, unknown> | null,
): LogEventType | null {
  if (action === 'GrantRolePermanent' || action === 'GrantRoleTemporary') {
    const kind = details?.kind;
    return kind === 'addDiscordRole' || kind === 'removeDiscordRole' ? 'roleChanges' : 'groupSync';
  }
  return Object.hasOwn(byAction, action) ? byAction[action] : null;
}
