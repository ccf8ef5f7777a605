import { useMutation, useQueryClient } from '@tanstack/react-query';
import { polledRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type AdminStatus = Schemas['AdminStatus'];
export type ProcessStatus = AdminStatus['processes'][number];
export type VrchatState = Schemas['VrchatState'];
export type VrchatAccountStatus = Schemas['VrchatAccountStatus'];

export const adminStatusKey = ['admin', 'status'] as const;
/** Heartbeats come every 5 s; asking more often shows nothing new. */
export const STATUS_REFRESH_MS = 5000;

export const { query: adminStatusQuery, useRead: useAdminStatus } = polledRead(
  adminStatusKey,
  () => unwrap(api.GET('/api/admin/status')),
  STATUS_REFRESH_MS,
);

export function useRetryVrchatLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/admin/vrchat/retry-login')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminStatusKey }),
  });
}
