import { useMutation, useQueryClient } from '@tanstack/react-query';
import { guildRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type LoggingConfig = Schemas['LoggingConfig'];
export type LogEventType = LoggingConfig['eventTypes'][number];

const config = guildRead('logging-config', (guildId) =>
  unwrap(api.GET('/api/guilds/logging/{guildId}/config', { params: { path: { guildId } } })),
);
export const { key: loggingConfigKey, query: loggingConfigQuery } = config;
/** The log channel and the kinds of events posted (ViewGuild). */
export const useLoggingConfig = config.useRead;

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
