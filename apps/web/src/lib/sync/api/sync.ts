import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { paths } from '../../../api/schema';

type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type SyncStatus = Ok<'/api/guilds/{guildId}/sync', 'get'>;
export type SyncPreview = Ok<'/api/guilds/{guildId}/sync/preview', 'get'>;
export type SyncActionView = SyncPreview['actions'][number];
export type SyncActionKind = SyncActionView['kind'];
export type HeldDecision = 'apply' | 'discard' | 'review';

/** Everything about a server's sync; invalidate this to refresh the status and the next-sync preview. */
export const syncKey = (guildId: string) => ['sync', guildId] as const;

export const syncStatusQuery = (guildId: string) =>
  queryOptions({
    queryKey: [...syncKey(guildId), 'status'] as const,
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}/sync', { params: { path: { guildId } } })),
  });

export const syncPreviewQuery = (guildId: string) =>
  queryOptions({
    queryKey: [...syncKey(guildId), 'preview'] as const,
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}/sync/preview', { params: { path: { guildId } } })),
  });

/** Last run, a sync waiting or running, held removals and warnings (needs Admin); polled while a sync is on. */
export function useSyncStatus(guildId: string, enabled = true) {
  return useQuery({
    ...syncStatusQuery(guildId),
    enabled,
    refetchInterval: (query) => (query.state.data?.activity ? SYNC_POLL_MS : false),
  });
}

/** How often the status is asked again while a sync is queued or running. */
const SYNC_POLL_MS = 2000;

/** A dry run: what the next sync would do (needs Admin). */
export function useSyncPreview(guildId: string, enabled = true) {
  return useQuery({ ...syncPreviewQuery(guildId), enabled });
}

/** For callers that change what the sync would do (role mappings, group settings). */
export function useInvalidateSync(guildId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: syncKey(guildId) });
}

/** Queues a sync now. */
export function useRunSync(guildId: string) {
  const invalidate = useInvalidateSync(guildId);
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/guilds/{guildId}/sync', { params: { path: { guildId } } })),
    onSuccess: invalidate,
  });
}

export type HeldRemovalsPage = Ok<'/api/guilds/{guildId}/sync/held', 'get'>;
/** Held removals listed per page (the server's default). */
export const HELD_PAGE_SIZE = 50;

/** One page of every removal the breaker holds awaiting a decision (needs Admin). */
export function useHeldRemovals(guildId: string, page: number, enabled = true) {
  return useQuery({
    queryKey: [...syncKey(guildId), 'held', page] as const,
    queryFn: () =>
      unwrap(
        api.GET('/api/guilds/{guildId}/sync/held', {
          params: { path: { guildId }, query: { page, pageSize: HELD_PAGE_SIZE } },
        }),
      ),
    enabled,
  });
}

/** Applies or discards the removals the last sync held back. */
export function useDecideHeldRemovals(guildId: string) {
  const invalidate = useInvalidateSync(guildId);
  return useMutation({
    mutationFn: (decision: HeldDecision) =>
      unwrap(
        api.POST('/api/guilds/{guildId}/sync/held', {
          params: { path: { guildId } },
          body: { decision },
        }),
      ),
    onSuccess: invalidate,
  });
}
