import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** The world the editor is for (its name for the header); read only with ViewWorlds. */
export function useWorld(guildId: string, worldId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['worlds', guildId, worldId],
    queryFn: () =>
      unwrap(api.GET('/api/guilds/{guildId}/worlds/{worldId}', { params: { path: { guildId, worldId } } })),
    enabled,
  });
}
