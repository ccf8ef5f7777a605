import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type GuildSettings = Schemas['GuildSettings'];
export type AutoAssignRoles = Schemas['AutoAssignRoles'];

export const guildSettingsKey = (guildId: string) => ['guild-settings', guildId] as const;

export const guildSettingsQuery = (guildId: string) =>
  queryOptions({
    queryKey: guildSettingsKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}', { params: { path: { guildId } } })),
  });

export function useGuildSettings(guildId: string) {
  return useQuery(guildSettingsQuery(guildId));
}

/** Saves one auto-assigned role at once (null clears it); the answer replaces the cached settings. */
export function useUpdateAutoAssignRoles(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<AutoAssignRoles>) =>
      unwrap(
        api.POST('/api/guilds/{guildId}', {
          params: { path: { guildId } },
          body: { autoAssignRoles: change },
        }),
      ),
    onSuccess: (settings) => queryClient.setQueryData(guildSettingsKey(guildId), settings),
  });
}
