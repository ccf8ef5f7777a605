import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

// The same cache entry as the Discord tab's settings (GET /api/guilds/{guildId}): one read serves both.
const guildSettingsKey = (guildId: string) => ['guild-settings', guildId] as const;

export const guildSettingsQuery = (guildId: string) =>
  queryOptions({
    queryKey: guildSettingsKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}', { params: { path: { guildId } } })),
  });

/** The server's settings, read for its contact e-mail (World Images needs one first). */
export function useGuildSettings(guildId: string) {
  return useQuery(guildSettingsQuery(guildId));
}

/** Stores the contact e-mail; the cached settings take it so the editor opens. */
export function useSetContactEmail(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      unwrap(api.POST('/api/guilds/{guildId}/contact', { params: { path: { guildId } }, body: { email } })),
    onSuccess: ({ contactEmail }) =>
      queryClient.setQueryData(guildSettingsKey(guildId), (settings) =>
        settings ? { ...settings, contactEmail } : settings,
      ),
  });
}
