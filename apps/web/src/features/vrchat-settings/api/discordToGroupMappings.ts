import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type DiscordToGroupMapping = Schemas['DiscordGroupMapping'];
export type DiscordToGroupMappings = Schemas['DiscordToGroupMappings'];

export const discordToGroupKey = (guildId: string) => ['discord-to-group-mappings', guildId] as const;

/** The Discord to group entries, the @everyone entry and the roles they may name. */
export const discordToGroupQuery = (guildId: string) =>
  queryOptions({
    queryKey: discordToGroupKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}/guild_roles', { params: { path: { guildId } } })),
  });

export function useDiscordToGroupMappings(guildId: string) {
  return useQuery(discordToGroupQuery(guildId));
}

/** 'Add': the server makes an empty entry; the list is then read again. */
export function useCreateDiscordToGroup(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/guilds/{guildId}/guild_roles', { params: { path: { guildId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discordToGroupKey(guildId) }),
  });
}

const replaceEntry = (list: DiscordToGroupMappings, entry: DiscordToGroupMapping): DiscordToGroupMappings =>
  list.everyoneRole.id === entry.id
    ? { ...list, everyoneRole: entry }
    : { ...list, linkedGroupRoles: list.linkedGroupRoles.map((e) => (e.id === entry.id ? entry : e)) };

/** Saves one row; the view shows the change before the server answers and is corrected after. */
export function useUpdateDiscordToGroup(guildId: string) {
  const queryClient = useQueryClient();
  const key = discordToGroupKey(guildId);
  return useMutation({
    mutationFn: (entry: DiscordToGroupMapping) =>
      unwrap(api.PUT('/api/guilds/{guildId}/guild_roles', { params: { path: { guildId } }, body: entry })),
    onMutate: async (entry) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<DiscordToGroupMappings>(key, (old) => (old ? replaceEntry(old, entry) : old));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Remove: the row leaves the view once the server agreed. */
export function useDeleteDiscordToGroup(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: string) =>
      unwrap(
        api.DELETE('/api/guilds/{guildId}/guild_roles/{roleId}', { params: { path: { guildId, roleId } } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: discordToGroupKey(guildId) }),
  });
}
