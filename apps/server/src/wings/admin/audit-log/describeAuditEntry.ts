/** The sentence the audit log shows for each action the product records. */
export const auditDescriptions: Readonly<Record<string, string>> = {
  // The bot's sync (the spec's event types for group work).
  Membership: 'Invited to the group or accepted a join request',
  NoMembership: 'Removed from the group',
  GrantRolePermanent: 'Gave a role (permanent mapping)',
  GrantRoleTemporary: 'Gave or took back a role (temporary mapping)',
  RevokeRole: 'Took a group role away',
  'role.auto.add': 'Gave an automatic Discord role',
  'role.auto.remove': 'Took an automatic Discord role away',
  'sync.failed': 'Could not apply a sync action',
  'sync.warning': 'Found a problem the bot cannot fix itself',
  'sync.requested': 'Asked for a sync now',
  'sync.removals_held': 'Held a mass removal for review',
  'sync.takeover_undone': 'Undid what an earlier link caused after its owner verified',
  'sync.takeover_not_undone': 'Could not undo what an earlier link caused after its owner verified',
  'sync.removals_approved': 'Approved held removals',
  'sync.removals_discarded': 'Kept the members of held removals (declined them)',
  'sync.removals_reviewed': 'Brought discarded removals back for a decision',
  'sync.removals_released': 'Let go of held removals the rules no longer ask for',
  'mapping.created': 'Created a role mapping',
  'mapping.updated': 'Changed a role mapping',
  'mapping.deleted': 'Deleted a role mapping',
  'api_key.create': 'Created an API key',
  'api_key.delete': 'Deleted an API key',
  'group.linked': 'Linked VRChat group',
  'group.vrchat_account_assigned': 'Assigned the VRChat bot account serving the group',
  'group.settings': 'Changed VRChat group settings',
  'group.unlinked': 'Unlinked VRChat group',
  'guest.assigned': 'Assigned a guest',
  'guest.unassigned': 'Removed a guest',
  'guest.left_server': 'Guest left the server',
  'guest.revoked_host_lost_role': 'Removed a guest (host lost the role)',
  'guest.assign_failed': 'Guest not assigned (Discord refused the role)',
  'guest.role_restored': 'Gave a guest their missing guest role',
  'guest_role.create': 'Created a guest role entry',
  'guest_role.update': 'Updated a guest role entry',
  'guest_role.delete': 'Deleted a guest role entry',
  'guild.auto_assign_roles': 'Changed auto-assigned roles',
  'guild.contact_email': 'Changed the contact e-mail',
  'discord_logging.config': 'Changed Discord logging',
  'link.created': 'Linked a VRChat account',
  'link.verified': 'Linked and verified a VRChat account',
  'link.refreshed': 'Refreshed a VRChat link',
  'link.removed': 'Unlinked a VRChat account',
  'link.moved_away': 'VRChat account moved to another user',
  'link.invites_reset': 'Reset group invites',
  'permissions.set': 'Granted permissions',
  'permissions.delete': 'Removed permissions',
  'permissions.ended_left_server': 'Permissions ended (member left the server)',
  'world.create': 'Created a world',
  'world.update': 'Updated world settings',
  'world.roles': 'Changed world roles',
  'world.delete': 'Deleted a world',
  'world_image.upload': 'Uploaded a server image',
  'world_image.rotate': 'Turned a server image',
  'world_image.delete': 'Deleted a server image',
  'world_image_slot.create': 'Added an image slot',
  'world_image_slot.update': 'Changed an image slot',
  'world_image_slot.delete': 'Deleted an image slot',
  'world_image_slot.reorder': 'Reordered image slots',
  'world.atlas.requested': 'Asked for new world atlases',
  'world.atlas.generated': 'Generated world atlases',
  'world.atlas.failed': 'Could not generate world atlases',
};

/** Actions on one member's roles (the sync's and the guests'): their sentence names the role and the VRChat name. */
export const namedSyncActions: readonly string[] = [
  'guest.assigned',
  'guest.unassigned',
  'guest.left_server',
  'guest.revoked_host_lost_role',
  'guest.assign_failed',
  'guest.role_restored',
  'guest.removed_account_deleted',
  'Membership',
  'NoMembership',
  'GrantRolePermanent',
  'GrantRoleTemporary',
  'RevokeRole',
  'role.auto.add',
  'role.auto.remove',
  'sync.failed',
];

/**
 * A short human sentence for an audit entry: the action's sentence, and for the sync's actions on a member
 * the role and the VRChat name from its details (`· role Linked · VRChat Carol`). An action on a VRChat
 * account names the account acted on by name and id, and the Discord member whose link it went through
 * (`· VRChat Carol (usr_…) · member carol_d`). The database builds the same text (see `descriptionSql`), so
 * sorting and searching match what is shown.
 */
export function describeAuditEntry(action: string, details?: Record<string, unknown> | null): string {
  const base = Object.hasOwn(auditDescriptions, action) ? auditDescriptions[action] : action;
  if (!namedSyncActions.includes(action) || !details) return base;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const role = text(details.roleName);
  const vrchat = text(details.vrchatName);
  const account = text(details.vrcUserId);
  const member = account && text(details.discordUserId) ? text(details.targetName) : null;
  return (
    `${base}${role ? ` · role ${role}` : ''}${vrchat ? ` · VRChat ${vrchat}` : ''}` +
    `${vrchat && account ? ` (${account})` : ''}${member ? ` · member ${member}` : ''}`
  );
}

/** The event type in words: its sentence, or for an action without one its code spelled out ('sdk.token_issued' → 'Sdk token issued'). */
export function auditEventLabel(action: string): string {
  if (Object.hasOwn(auditDescriptions, action)) return auditDescriptions[action];
  const words = action.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
