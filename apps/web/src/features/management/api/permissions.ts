import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

export const permissionsKey = (guildId: string) => ['guild-permissions', guildId] as const;

export const permissionsQuery = (guildId: string) =>
  queryOptions({
    queryKey: permissionsKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/permissions/{guildId}', { params: { path: { guildId } } })),
  });

export function usePermissions(guildId: string) {
  return useQuery(permissionsQuery(guildId));
}

export type PermissionEntry = NonNullable<ReturnType<typeof usePermissions>['data']>['users'][number];
