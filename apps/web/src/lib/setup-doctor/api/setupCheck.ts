import { useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type SetupCheckResult = Schemas['SetupCheckResult'];
export type SetupCheck = SetupCheckResult['checks'][number];

/** What would stop the bot here (ViewGuild). Asks Discord and VRChat each time, so it is not kept long. */
export function useSetupCheck(guildId: string, enabled = true) {
  return useQuery({
    queryKey: ['setup-check', guildId] as const,
    queryFn: () => unwrap(api.GET('/api/guilds/{guildId}/setup_check', { params: { path: { guildId } } })),
    enabled,
    staleTime: 10_000,
  });
}
