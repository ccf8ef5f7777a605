import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { operations } from '../../../api/schema';
import { guestsKey } from './guestInfo';

export type GuestSearchResult =
  operations['searchGuests']['responses'][200]['content']['application/json']['results'][number];

/** Discord members of the server matching the text; runs only for non-blank text. */
export function discordGuestSearchQuery(guildId: string, text: string) {
  const memberQuery = text.trim();
  return queryOptions({
    queryKey: [...guestsKey(guildId), 'discord-search', memberQuery],
    queryFn: async () => {
      const { results } = await unwrap(
        api.GET('/api/users/guests/{guildId}/search', {
          params: { path: { guildId }, query: { memberQuery } },
        }),
      );
      return results;
    },
    enabled: memberQuery.length > 0,
    retry: false,
    gcTime: 0,
  });
}

/** VRChat users matching the text; an explicit action because the server allows one per 5 s. */
export function useVrchatGuestSearch(guildId: string) {
  return useMutation({
    mutationFn: async (vrcQuery: string) => {
      const { results } = await unwrap(
        api.GET('/api/users/guests/{guildId}/search', { params: { path: { guildId }, query: { vrcQuery } } }),
      );
      return results;
    },
  });
}
