import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';
import type { operations } from '../../../api/schema';

export type GuestInfo = operations['getGuests']['responses'][200]['content']['application/json'];
export type Guest = Schemas['Guest'];

/** Everything the Setup Guests dialog caches for one server; dropped when the dialog closes. */
export const guestsKey = (guildId: string) => ['guests', guildId] as const;
export const guestInfoKey = (guildId: string) => [...guestsKey(guildId), 'info'] as const;

export function guestInfoQuery(guildId: string) {
  return queryOptions({
    queryKey: guestInfoKey(guildId),
    queryFn: () => unwrap(api.GET('/api/users/guests/{guildId}', { params: { path: { guildId } } })),
    // Closing the dialog unmounts its content; with no observer left the data goes at once.
    gcTime: 0,
  });
}
