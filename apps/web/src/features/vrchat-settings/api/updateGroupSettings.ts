import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { linkedGroupKey } from './linkedGroup';

export type GroupSettingsChange = { enabled: boolean } | { autoKick: boolean };

/** Saves one switch at once; the answer replaces the cached group. */
export function useUpdateGroupSettings(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: GroupSettingsChange) =>
      unwrap(api.POST('/api/groups/{guildId}', { params: { path: { guildId } }, body: change })),
    onSuccess: (group) => queryClient.setQueryData(linkedGroupKey(guildId), group),
  });
}
