import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';

export type CurrentUser = Schemas['CurrentUser'];

export const currentUserKey = ['current-user'] as const;

/** Resolves to the signed-in user, or null: any failure (401 included) counts as logged out. */
async function loadCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await unwrap(api.GET('/api/user'));
  } catch (error) {
    console.debug('Current user not loaded; treating the visitor as logged out.', error);
    return null;
  }
}

export const currentUserQuery = queryOptions({
  queryKey: currentUserKey,
  queryFn: loadCurrentUser,
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
