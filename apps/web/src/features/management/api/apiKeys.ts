import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';
import type { GuildPermission } from '../../../lib/guild-access/api/guilds';

export type ApiKey = Schemas['ApiKey'];

export const apiKeysKey = (guildId: string) => ['api-keys', guildId] as const;

export const apiKeysQuery = (guildId: string) =>
  queryOptions({
    queryKey: apiKeysKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}/api_keys', { params: { path: { guildId } } })),
  });

export function useApiKeys(guildId: string) {
  return useQuery(apiKeysQuery(guildId));
}

export function useCreateApiKey(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; permissions: GuildPermission[]; validUntil: string }) =>
      unwrap(api.POST('/api/guilds/{guildId}/api_keys/create', { params: { path: { guildId } }, body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey(guildId) }),
  });
}

export function useDeleteApiKey(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (apiKeyId: string) =>
      unwrap(
        api.DELETE('/api/guilds/{guildId}/api_keys/{apiKeyId}', { params: { path: { guildId, apiKeyId } } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey(guildId) }),
  });
}
