import { useMutation, useQueryClient } from '@tanstack/react-query';
import { guildRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type GuestRoleEntry = Schemas['GuestRoleEntry'];
type GuestRoles = { guestRoles: GuestRoleEntry[] };

const guestRoles = guildRead('guest-roles', (guildId) =>
  unwrap(api.GET('/api/guilds/{guildId}/guest_roles', { params: { path: { guildId } } })),
);
export const { key: guestRolesKey, query: guestRolesQuery, useRead: useGuestRoles } = guestRoles;

/** 'Add': the server's new list replaces the view. */
export function useCreateGuestRole(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/guilds/{guildId}/guest_roles', { params: { path: { guildId } } })),
    onSuccess: (list) => queryClient.setQueryData(guestRolesKey(guildId), list),
  });
}

/** Saves one row; the view shows the change before the server answers and is corrected after. */
export function useUpdateGuestRole(guildId: string) {
  const queryClient = useQueryClient();
  const key = guestRolesKey(guildId);
  return useMutation({
    mutationFn: (entry: GuestRoleEntry) =>
      unwrap(api.PUT('/api/guilds/{guildId}/guest_roles', { params: { path: { guildId } }, body: entry })),
    onMutate: async (entry) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<GuestRoles>(key, (old) =>
        old ? { guestRoles: old.guestRoles.map((e) => (e.id === entry.id ? entry : e)) } : old,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Remove: the row leaves the view once the server agreed. */
export function useDeleteGuestRole(guildId: string) {
  const queryClient = useQueryClient();
  const key = guestRolesKey(guildId);
  return useMutation({
    mutationFn: (guestRoleId: string) =>
      unwrap(
        api.DELETE('/api/guilds/{guildId}/guest_roles/{guestRoleId}', {
          params: { path: { guildId, guestRoleId } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
