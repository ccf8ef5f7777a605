import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type VrchatUserResult = Schemas['VrchatUserResult'];

/** VRChat users by display name, usr_ id or profile URL; only runs for non-blank text. */
export function vrchatUserSearchQuery(query: string) {
  const text = query.trim();
  return queryOptions({
    queryKey: ['vrchat-user-search', text],
    queryFn: () => unwrap(api.GET('/api/users/search', { params: { query: { query: text } } })),
    enabled: text.length > 0,
    retry: false,
    staleTime: 60_000,
  });
}

export function useVrchatUserSearch(query: string) {
  return useQuery(vrchatUserSearchQuery(query));
}
