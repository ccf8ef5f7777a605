import { polledRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type WorldMirrorStatus = Schemas['WorldMirrorStatus'];

export const worldMirrorKey = ['admin', 'world-mirror'] as const;
/** The mirror runs every 10 minutes (or on Run now): a few seconds' delay shows a run soon enough. */
export const WORLD_MIRROR_REFRESH_MS = 5000;

export const { query: worldMirrorQuery, useRead: useWorldMirrorStatus } = polledRead(
  worldMirrorKey,
  () => unwrap(api.GET('/api/admin/world-mirror')),
  WORLD_MIRROR_REFRESH_MS,
);
