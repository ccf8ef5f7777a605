import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type VpmListing = Schemas['VpmListing'];

/** The server's VCC repository listing; its `url` is the address users add to the Creator Companion. */
export const vpmListingQuery = queryOptions({
  queryKey: ['vpm-listing'],
  queryFn: () => unwrap(api.GET('/api/vpm/index.json')),
  staleTime: 5 * 60 * 1000,
});

export function useVpmListing() {
  return useQuery(vpmListingQuery);
}
