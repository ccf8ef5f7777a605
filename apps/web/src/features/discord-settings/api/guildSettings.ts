import { useMutation, useQueryClient } from '@tanstack/react-query';
import { guildRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type GuildSettings = Schemas['GuildSettings'];
export type AutoAssignRoles = Schemas['AutoAssignRoles'];

const settings = guildRead('guild-settings', (guildId) =>
  unwrap(api.GET('/api/guilds/{guildId}', { params: { path: { guildId } } })),
);
export const { key: guildSettingsKey, query: guildSettingsQuery, useRead: useGuildSettings } = settings;

/** What becomes of a role a setting stops managing: taken back from its holders, or kept on them. */
export type OldRolesChoice = 'take' | 'keep';

/**
 * Saves one auto-assigned role at once (null clears it), with what becomes of the role it replaces; the answer
 * replaces the cached settings.
 */
export function useUpdateAutoAssignRoles(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ change, oldRoles }: { change: Partial<AutoAssignRoles>; oldRoles?: OldRolesChoice }) =>
      unwrap(
        api.POST('/api/guilds/{guildId}', {
          params: { path: { guildId } },
          body: { autoAssignRoles: change, ...(oldRoles ? { oldRoles } : {}) },
        }),
      ),
    onSuccess: (settings) => queryClient.setQueryData(guildSettingsKey(guildId), settings),
  });
}
