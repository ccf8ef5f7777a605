import { useInfiniteQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type ApiLogEntry = Schemas['ApiLogEntry'];

export const apiLogKey = (guildId: string) => ['api-log', guildId] as const;

/** The server's /api/v1 calls, newest first, 50 a page; each page's cursor fetches the next (older) one. */
export function useApiLog(guildId: string) {
  return useInfiniteQuery({
    queryKey: apiLogKey(guildId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/guilds/{guildId}/api_log', {
          params: { path: { guildId }, query: pageParam ? { cursor: pageParam } : {} },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
