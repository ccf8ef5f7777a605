import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

export const atlasMetadataKey = (worldId: string) => ['world-atlas', worldId] as const;

const fetchAtlasMetadata = (worldId: string) =>
  unwrap(api.GET('/api/world_images/atlas/{worldId}/metadata', { params: { path: { worldId } } }));

/** A world's atlases and the state of its generation. */
export type AtlasMetadata = Awaited<ReturnType<typeof fetchAtlasMetadata>>;

/** While a generation is queued or running. */
export const isGenerating = (atlas: AtlasMetadata | undefined) =>
  atlas?.status === 'queued' || atlas?.status === 'running';

/** How often the metadata is read again while a generation runs. */
export const ATLAS_POLL_MS = 1000;
/** While the atlases are out of date: the scheduled regeneration (every 5 minutes) makes them current. */
export const OUT_OF_DATE_POLL_MS = 60_000;

export const atlasMetadataQuery = (worldId: string) =>
  queryOptions({ queryKey: atlasMetadataKey(worldId), queryFn: () => fetchAtlasMetadata(worldId) });

/** The metadata, read again every second while a generation is under way, every minute while out of date. */
export function useAtlasMetadata(worldId: string, enabled: boolean) {
  return useQuery({
    ...atlasMetadataQuery(worldId),
    enabled,
    refetchInterval: (query) =>
      isGenerating(query.state.data)
        ? ATLAS_POLL_MS
        : query.state.data?.outOfDate
          ? OUT_OF_DATE_POLL_MS
          : false,
  });
}

/** Starts a generation (409 with the server's sentence while one runs); its answer is the new atlas state. */
export function useGenerateAtlas(guildId: string, worldId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/world_images/atlas/{guildId}/{worldId}/generate', {
          params: { path: { guildId, worldId } },
        }),
      ),
    onSuccess: (state) => queryClient.setQueryData(atlasMetadataKey(worldId), state),
  });
}
