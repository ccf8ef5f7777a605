import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** The server's text channels the bot can post in (Admin); asked again each time the dialog opens. */
export function useGuildChannels(guildId: string) {
  return useQuery({
    queryKey: ['guild-channels', guildId] as const,
    queryFn: () =>
      unwrap(api.GET('/api/guilds/channels/{guildId}/channels', { params: { path: { guildId } } })),
    staleTime: 0,
  });
}
