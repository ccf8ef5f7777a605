import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';
import { ApiError } from '../../../api/errors';

export type LinkedGroup = Schemas['LinkedGroup'];

export const linkedGroupKey = (guildId: string) => ['linked-group', guildId] as const;

/** The server's linked VRChat group; null when none is linked (the server's 404). */
export const linkedGroupQuery = (guildId: string) =>
  queryOptions({
    queryKey: linkedGroupKey(guildId),
    queryFn: async (): Promise<LinkedGroup | null> => {
      try {
        return await unwrap(api.GET('/api/groups/{guildId}', { params: { path: { guildId } } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });

export function useLinkedGroup(guildId: string, enabled = true) {
  return useQuery({ ...linkedGroupQuery(guildId), enabled });
}
