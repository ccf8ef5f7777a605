import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type GroupToDiscordMapping = Schemas['GroupDiscordMapping'];
export type GroupToDiscordMappings = Schemas['GroupToDiscordMappings'];

export const groupToDiscordKey = (guildId: string) => ['group-to-discord-mappings', guildId] as const;

/** The group to Discord entries and the roles they may name. */
export const groupToDiscordQuery = (guildId: string) =>
  queryOptions({
    queryKey: groupToDiscordKey(guildId),
    queryFn: () => unwrap(api.GET('/api/groups/{guildId}/group_roles', { params: { path: { guildId } } })),
  });

export function useGroupToDiscordMappings(guildId: string) {
  return useQuery(groupToDiscordQuery(guildId));
}

/** 'Add': the server makes an empty entry; the list is then read again. */
export function useCreateGroupToDiscord(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/groups/{guildId}/group_roles', { params: { path: { guildId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupToDiscordKey(guildId) }),
  });
}

/** Saves one row; the view shows the change before the server answers and is corrected after. */
export function useUpdateGroupToDiscord(guildId: string) {
  const queryClient = useQueryClient();
  const key = groupToDiscordKey(guildId);
  return useMutation({
    mutationFn: (entry: GroupToDiscordMapping) =>
      unwrap(api.PUT('/api/groups/{guildId}/group_roles', { params: { path: { guildId } }, body: entry })),
    onMutate: async (entry) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<GroupToDiscordMappings>(key, (old) =>
        old
          ? { ...old, linkedGuildRoles: old.linkedGuildRoles.map((e) => (e.id === entry.id ? entry : e)) }
          : old,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Remove: the row leaves the view once the server agreed. */
export function useDeleteGroupToDiscord(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: string) =>
      unwrap(
        api.DELETE('/api/groups/{guildId}/group_roles/{roleId}', { params: { path: { guildId, roleId } } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: groupToDiscordKey(guildId) }),
  });
}
