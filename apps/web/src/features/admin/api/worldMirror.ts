import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type WorldMirrorStatus = Schemas['WorldMirrorStatus'];

export const worldMirrorKey = ['admin', 'world-mirror'] as const;
/** The mirror runs every 10 minutes (or on Run now): a few seconds' delay shows a run soon enough. */
export const WORLD_MIRROR_REFRESH_MS = 5000;

export const worldMirrorQuery = () =>
  queryOptions({
    queryKey: worldMirrorKey,
    queryFn: () => unwrap(api.GET('/api/admin/world-mirror')),
    refetchInterval: WORLD_MIRROR_REFRESH_MS,
  });

export function useWorldMirrorStatus() {
  return useQuery(worldMirrorQuery());
}
