import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

export const memberDetailsQuery = (guildId: string, memberId: string) =>
  queryOptions({
    queryKey: ['member-details', guildId, memberId],
    queryFn: () =>
      unwrap(
        api.GET('/api/members/{guildId}/{memberId}', {
          params: { path: { guildId, memberId }, query: { includeRoles: 'true' } },
        }),
      ),
  });

export function useMemberDetails(guildId: string, memberId: string | null) {
  return useQuery({ ...memberDetailsQuery(guildId, memberId ?? ''), enabled: memberId !== null });
}
