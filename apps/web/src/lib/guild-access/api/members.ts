import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type MemberSearchResult = Schemas['MemberSearchResult'];
export type MemberSearchField = 'DiscordId' | 'DiscordName' | 'VrcId' | 'VrcName';
export const MEMBER_SEARCH_MIN = 2;

export type MemberFilter = 'all' | 'linked' | 'unlinked' | 'unverified';

export const membersQuery = (
  guildId: string,
  search: string,
  searchBy: MemberSearchField,
  page: number,
  filter: MemberFilter = 'all',
) =>
  queryOptions({
    queryKey: ['members', guildId, searchBy, search, page, filter],
    queryFn: () =>
      unwrap(
        api.GET('/api/members/{guildId}', {
          params: { path: { guildId }, query: { search: search || undefined, searchBy, page, filter } },
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
