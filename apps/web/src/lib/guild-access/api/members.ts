import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type MemberSearchResult = Schemas['MemberSearchResult'];
export type MemberSearchField = 'DiscordId' | 'DiscordName' | 'VrcId' | 'VrcName';
export const MEMBER_SEARCH_MIN = 2;

export const membersQuery = (guildId: string, search: string, searchBy: MemberSearchField, page: number) =>
  queryOptions({
    queryKey: ['members', guildId, searchBy, search, page],
    queryFn: () =>
      unwrap(
        api.GET('/api/members/{guildId}', {
          params: { path: { guildId }, query: { search: search || undefined, searchBy, page } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Member search (at least 2 characters; the caller debounces). */
export function useMemberSearch(guildId: string, search: string, searchBy: MemberSearchField, page = 1) {
  return useQuery({
    ...membersQuery(guildId, search, searchBy, page),
    enabled: search.trim().length >= MEMBER_SEARCH_MIN,
  });
}
