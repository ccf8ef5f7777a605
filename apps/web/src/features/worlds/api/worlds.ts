import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type World = Schemas['World'];
export type WorldsResponse = Schemas['WorldsResponse'];
export type WorldRoleEntry = World['discordEncodeRoles'][number];
export type DiscordRole = WorldsResponse['discordRoles'][number];
export type GroupRole = NonNullable<WorldsResponse['groupRoles']>[number];

export const worldsKey = (guildId: string) => ['worlds', guildId] as const;

/** The server's worlds and the roles they may encode. */
export function worldsQuery(guildId: string) {
  return queryOptions({
    queryKey: worldsKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}/worlds', { params: { path: { guildId } } })),
  });
}

export function useWorlds(guildId: string, enabled = true) {
  return useQuery({ ...worldsQuery(guildId), enabled });
}

/** Applies a change to one world in the cached list (no-op when the list is not cached). */
export function patchCachedWorld(
  queryClient: QueryClient,
  guildId: string,
  worldId: string,
  patch: (world: World) => World,
): void {
  queryClient.setQueryData<WorldsResponse>(
    worldsKey(guildId),
    (data) => data && { ...data, worlds: data.worlds.map((w) => (w.id === worldId ? patch(w) : w)) },
  );
}

/** Takes the server's answer for one world into the cached list. */
export const storeWorld = (queryClient: QueryClient, guildId: string, world: World) =>
  patchCachedWorld(queryClient, guildId, world.id, () => world);
