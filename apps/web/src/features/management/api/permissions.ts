import { guildRead } from '../../../api/cachedRead';
import { api, unwrap } from '../../../api/client';

const permissions = guildRead('guild-permissions', (guildId) =>
  unwrap(api.GET('/api/guilds/permissions/{guildId}', { params: { path: { guildId } } })),
);
export const { key: permissionsKey, query: permissionsQuery, useRead: usePermissions } = permissions;

export type PermissionEntry = NonNullable<ReturnType<typeof usePermissions>['data']>['users'][number];
