import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type ManageableGuild = Schemas['ManageableGuild'];
export type GuildPermission = Schemas['GuildPermission'];

export const guildsKey = ['guilds'] as const;

export const guildsQuery = queryOptions({
  queryKey: guildsKey,
  queryFn: () => unwrap(api.GET('/api/guilds')),
});

/** The servers the caller may manage, with their effective permissions (the server enforces them too). */
export function useGuilds() {
  return useQuery(guildsQuery);
}
