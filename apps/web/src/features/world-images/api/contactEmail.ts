import { useMutation, useQueryClient } from '@tanstack/react-query';
import { guildRead } from '../../../api/cachedRead';
import { api, unwrap } from '../../../api/client';

// The same cache entry as the Discord tab's settings (GET /api/guilds/{guildId}): one read serves both.
const settings = guildRead('guild-settings', (guildId) =>
  unwrap(api.GET('/api/guilds/{guildId}', { params: { path: { guildId } } })),
);
const guildSettingsKey = settings.key;
export const guildSettingsQuery = settings.query;
/** The server's settings, read for its contact e-mail (World Images needs one first). */
export const useGuildSettings = settings.useRead;

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
