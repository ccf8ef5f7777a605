import { schemaEnum } from '../../api/schemaEnums';
import type { GuildPermission } from './api/guilds';

/** Every guild permission, in the order the API documents them (read from the OpenAPI document). */
export const guildPermissions = schemaEnum('GuildPermission');

/** How a permission is shown: Admin as 'Administrator', the others by their own name. */
export const permissionLabel = (p: GuildPermission) => (p === 'Admin' ? 'Administrator' : p);

/**
 * What each permission lets its holder do, one line each (docs/decisions.md, "Permissions"): shown under its
 * name wherever permissions are granted, since the names alone are identifiers.
 */
export const permissionDescriptions: Record<GuildPermission, string> = {
  Admin: 'Everything below, and change the settings, admins, API keys and logging of this server.',
  WorldPreview: "Preview the data a world receives, as the world's players would.",
  ViewGuild: "See this server's settings and search its members.",
  ViewWorlds: 'See the worlds and their settings (includes WorldPreview).',
  ManageWorlds: 'Create, change, lock and delete worlds (includes ViewWorlds).',
  ViewImages: "See the worlds' images and atlases.",
  ManageImages: "Upload, change and delete the worlds' images (includes ViewImages).",
};
