import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { syncKey } from './sync';

export type ProposedChange = NonNullable<
  paths['/api/guilds/{guildId}/sync/preview']['post']['requestBody']
>['content']['application/json'];
export type ChangePreview = Schemas['ChangePreview'];

export const changePreviewQuery = (guildId: string, change: ProposedChange) =>
  queryOptions({
    queryKey: [...syncKey(guildId), 'change', change] as const,
    queryFn: () =>
      unwrap(api.POST('/api/guilds/{guildId}/sync/preview', { params: { path: { guildId } }, body: change })),
    // A preview is of the moment it is asked for: asked again each time a change is proposed.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** What the bot would do if this change were saved (needs Admin); nothing is saved. */
export function useChangePreview(guildId: string, change: ProposedChange | null) {
  return useQuery({
    ...changePreviewQuery(guildId, change ?? { kind: 'groupSettings' }),
    enabled: change !== null,
  });
}
