import { schemaEnum } from '../../api/schemaEnums';
import type { GuildPermission } from './api/guilds';

/** Every guild permission, in the order the API documents them (read from the OpenAPI document). */
export const guildPermissions = schemaEnum('GuildPermission');

/** How a permission is shown: Admin as 'Administrator', the others by their own name. */
export const permissionLabel = (p: GuildPermission) => (p === 'Admin' ? 'Administrator' : p);
