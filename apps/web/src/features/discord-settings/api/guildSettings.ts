import { useMutation, useQueryClient } from '@tanstack/react-query';
import { guildRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';
import { ApiError } from '../../../api/errors';

export type GuildSettings = Schemas['GuildSettings'];
export type AutoAssignRoles = Schemas['AutoAssignRoles'];

const settings = guildRead('guild-settings', (guildId) =>
  unwrap(api.GET('/api/guilds/{guildId}', { params: { path: { guildId } } })),
);
export const { key: guildSettingsKey, query: guildSettingsQuery, useRead: useGuildSettings } = settings;

/** What becomes of a role a setting stops managing: taken back from its holders, or kept on them. */
export type OldRolesChoice = 'take' | 'keep';

/**
 * Saves one auto-assigned role at once (null clears it), with the version the settings were read at (the
 * server answers 409 when another manager saved since) and what becomes of the role it replaces. The answer
 * replaces the cached settings.
 */
export function useUpdateAutoAssignRoles(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      change,
      version,
      oldRoles,
    }: {
      change: Partial<AutoAssignRoles>;
      version: number;
      oldRoles?: OldRolesChoice;
    }) =>
      unwrap(
        api.POST('/api/guilds/{guildId}', {
          params: { path: { guildId } },
          body: { autoAssignRoles: change, version, ...(oldRoles ? { oldRoles } : {}) },
        }),
      ),
    onSuccess: (settings) => queryClient.setQueryData(guildSettingsKey(guildId), settings),
  });
}

/** Whether a save failed because another manager saved since it was read (409). */
export const isStaleSave = (error: unknown) => error instanceof ApiError && error.status === 409;
