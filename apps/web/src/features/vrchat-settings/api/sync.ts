import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client } from 'openapi-fetch';
import { api, unwrap } from '../../../api/client';

// Local types for the sync routes until they are in the generated schema (then use Schemas[...] and `api`).
export type SyncActionKind =
  | 'invite'
  | 'acceptRequest'
  | 'remove'
  | 'addGroupRole'
  | 'removeGroupRole'
  | 'addDiscordRole'
  | 'removeDiscordRole';

export interface SyncActionView {
  kind: SyncActionKind;
  targetName: string;
  discordUserId: string | null;
  vrcUserId: string | null;
  roleName: string | null;
  reason: string;
}

export interface SyncStatus {
  groupEnabled: boolean;
  lastRunAt: string | null;
  lastResult: { applied: number; failed: number; held: number } | null;
  held: { count: number; heldAt: string; actions: SyncActionView[] } | null;
  warnings: { kind: string; message: string }[];
}

export interface SyncPreview {
  total: number;
  counts: Record<string, number>;
  /** The first 50. */
  actions: SyncActionView[];
  /** Removals the circuit breaker would hold back. */
  wouldHold: number;
  /** False when VRChat cannot list the whole group, so Auto Remove sees only members the bot has seen. */
  complete: boolean;
}

export type HeldDecision = 'apply' | 'discard';

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type GuildPath = { query?: never; header?: never; path: { guildId: string }; cookie?: never };
type Responses<T> = { 200: Json<T>; default: Json<{ message: string }> };
type Operation<T> = { parameters: GuildPath; requestBody?: never; responses: Responses<T> };
type OperationWithBody<T, Body> = {
  parameters: GuildPath;
  requestBody: { content: { 'application/json': Body } };
  responses: Responses<T>;
};
type NoPath = { query?: never; header?: never; path?: never; cookie?: never };
type Unused = { put?: never; delete?: never; options?: never; head?: never; patch?: never; trace?: never };

/** The sync routes in openapi-typescript's shape, so the one client types them like generated paths. */
interface SyncPaths {
  '/api/guilds/{guildId}/sync': Unused & {
    parameters: NoPath;
    get: Operation<SyncStatus>;
    post: Operation<{ queued: boolean }>;
  };
  '/api/guilds/{guildId}/sync/preview': Unused & {
    parameters: NoPath;
    get: Operation<SyncPreview>;
    post?: never;
  };
  '/api/guilds/{guildId}/sync/held': Unused & {
    parameters: NoPath;
    get?: never;
    post: OperationWithBody<{ count: number }, { decision: HeldDecision }>;
  };
}

// Same client (XSRF, credentials, 401 handling, error kinds), typed with the local paths above.
const syncApi = api as unknown as Client<SyncPaths>;

/** Everything about a server's sync; invalidate this to refresh the status and the next-sync preview. */
export const syncKey = (guildId: string) => ['sync', guildId] as const;

export const syncStatusQuery = (guildId: string) =>
  queryOptions({
    queryKey: [...syncKey(guildId), 'status'] as const,
    queryFn: () => unwrap(syncApi.GET('/api/guilds/{guildId}/sync', { params: { path: { guildId } } })),
  });

export const syncPreviewQuery = (guildId: string) =>
  queryOptions({
    queryKey: [...syncKey(guildId), 'preview'] as const,
    queryFn: () =>
      unwrap(syncApi.GET('/api/guilds/{guildId}/sync/preview', { params: { path: { guildId } } })),
  });

/** Last run, held removals and warnings (needs Admin). */
export function useSyncStatus(guildId: string, enabled = true) {
  return useQuery({ ...syncStatusQuery(guildId), enabled });
}

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
    mutationFn: () => unwrap(syncApi.POST('/api/guilds/{guildId}/sync', { params: { path: { guildId } } })),
    onSuccess: invalidate,
  });
}

/** Applies or discards the removals the last sync held back. */
export function useDecideHeldRemovals(guildId: string) {
  const invalidate = useInvalidateSync(guildId);
  return useMutation({
    mutationFn: (decision: HeldDecision) =>
      unwrap(
        syncApi.POST('/api/guilds/{guildId}/sync/held', {
          params: { path: { guildId } },
          body: { decision },
        }),
      ),
    onSuccess: invalidate,
  });
}
