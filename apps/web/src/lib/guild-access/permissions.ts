import type { GuildPermission } from './api/guilds';

export const guildPermissions: GuildPermission[] = [
  'Admin',
  'WorldPreview',
  'ViewGuild',
  'ViewWorlds',
  'ManageWorlds',
  'ViewImages',
  'ManageImages',
];

/** How a permission is shown: Admin as 'Administrator', the others by their own name. */
export const permissionLabel = (p: GuildPermission) => (p === 'Admin' ? 'Administrator' : p);
