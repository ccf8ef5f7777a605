import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from './client';

export type PublicConfig = Schemas['PublicConfig'];

/** Public settings the pages link to (invite, support, contact); they do not change while the app runs. */
export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: () => unwrap(api.GET('/api/config')),
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery).data;
}
