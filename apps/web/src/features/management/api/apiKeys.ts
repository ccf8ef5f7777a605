import { useMutation, useQueryClient } from '@tanstack/react-query';
import { guildRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';
import type { GuildPermission } from '../../../lib/guild-access/api/guilds';

export type ApiKey = Schemas['ApiKey'];

const apiKeys = guildRead('api-keys', (guildId) =>
  unwrap(api.GET('/api/guilds/{guildId}/api_keys', { params: { path: { guildId } } })),
);
export const { key: apiKeysKey, query: apiKeysQuery, useRead: useApiKeys } = apiKeys;

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
