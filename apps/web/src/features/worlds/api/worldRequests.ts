import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type WorldRequests = Schemas['WorldRequests'];

/** Downloads of each world's data over the last 24 hours (the server stores its counts each minute). */
export function worldRequestsQuery(guildId: string) {
  return queryOptions({
    queryKey: ['world-requests', guildId],
    queryFn: () =>
      unwrap(api.GET('/api/guilds/{guildId}/worlds/requests', { params: { path: { guildId } } })),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });
}

/** One world's count: 0 when it had no download; undefined while loading or when the counts failed. */
export function useWorldRequestCount(guildId: string, worldId: string): number | undefined {
  const { data } = useQuery(worldRequestsQuery(guildId));
  return data && (data.worlds.find((w) => w.worldId === worldId)?.last24h ?? 0);
}
