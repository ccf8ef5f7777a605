import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type LoggingConfig = Schemas['LoggingConfig'];
export type LogEventType = LoggingConfig['eventTypes'][number];

export const loggingConfigKey = (guildId: string) => ['logging-config', guildId] as const;

export const loggingConfigQuery = (guildId: string) =>
  queryOptions({
    queryKey: loggingConfigKey(guildId),
    queryFn: () => unwrap(api.GET('/api/guilds/logging/{guildId}/config', { params: { path: { guildId } } })),
  });

/** The log channel and the kinds of events posted (ViewGuild). */
export function useLoggingConfig(guildId: string) {
  return useQuery(loggingConfigQuery(guildId));
}

/** Saves the log channel (null: off) and the kinds posted (Admin). */
export function useUpdateLoggingConfig(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { channelId: string | null; eventTypes: LogEventType[] }) =>
      unwrap(api.PATCH('/api/guilds/logging/{guildId}/config', { params: { path: { guildId } }, body })),
    onSuccess: (saved) => queryClient.setQueryData(loggingConfigKey(guildId), saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['setup-check', guildId] }),
  });
}
