import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** The document the world downloads, freshly built each time the preview opens. */
export function worldPreviewQuery(guildId: string, worldId: string) {
  return queryOptions({
    queryKey: ['world-preview', guildId, worldId],
    queryFn: () =>
      unwrap(
        api.GET('/api/guilds/{guildId}/worlds/preview/{worldId}', {
          params: { path: { guildId, worldId } },
        }),
      ),
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
}

export function useWorldPreview(guildId: string, worldId: string, enabled: boolean) {
  return useQuery({ ...worldPreviewQuery(guildId, worldId), enabled });
}
