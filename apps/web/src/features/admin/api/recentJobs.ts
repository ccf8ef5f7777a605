import { polledRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type RecentJob = Schemas['RecentJob'];

export const recentJobsKey = ['admin', 'recent-jobs'] as const;
/** Most tasks run every minute or more: a few seconds' delay shows a run soon enough. */
export const RECENT_JOBS_REFRESH_MS = 5000;

export const { query: recentJobsQuery, useRead: useRecentJobs } = polledRead(
  recentJobsKey,
  () => unwrap(api.GET('/api/admin/jobs/recent')),
  RECENT_JOBS_REFRESH_MS,
);
