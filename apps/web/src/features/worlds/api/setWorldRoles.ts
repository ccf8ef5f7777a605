import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { patchCachedWorld, storeWorld, type WorldRoleEntry, worldsKey } from './worlds';

export const roleListKeys = [
  'discordEncodeRoles',
  'discordAlwaysEncodeRoles',
  'groupEncodeRoles',
  'groupAlwaysEncodeRoles',
] as const;
export type RoleListKey = (typeof roleListKeys)[number];

interface Change {
  worldId: string;
  list: RoleListKey;
  /** The whole list in the picker's order (the order is what the world data keeps). */
  roles: WorldRoleEntry[];
}

/** Saves one of the four role lists; shown at once, replaced by the server's answer. */
export function useSetWorldRoles(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ worldId, list, roles }: Change) =>
      unwrap(
        api.POST('/api/guilds/{guildId}/worlds/{worldId}/roles', {
          params: { path: { guildId, worldId } },
          // The body has exactly one of the four keys; TypeScript cannot see that through a computed key.
          body: { [list]: roles.map((r) => r.roleId) } as { discordEncodeRoles: string[] },
        }),
      ),
    onMutate: async ({ worldId, list, roles }) => {
      await queryClient.cancelQueries({ queryKey: worldsKey(guildId) });
      patchCachedWorld(queryClient, guildId, worldId, (world) => ({ ...world, [list]: roles }));
    },
    onSuccess: (world) => storeWorld(queryClient, guildId, world),
    onError: () => queryClient.invalidateQueries({ queryKey: worldsKey(guildId) }),
  });
}
