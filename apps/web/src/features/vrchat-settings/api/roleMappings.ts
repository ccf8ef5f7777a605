import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MappingDirection, MappingEntry } from '../mappingDirections';

/** The direction's entries and the roles they may name. */
export function useRoleMappings<L, E extends MappingEntry>(
  direction: MappingDirection<L, E>,
  guildId: string,
) {
  return useQuery({ queryKey: direction.key(guildId), queryFn: () => direction.list(guildId) });
}

/** 'Add': the server makes an empty entry; the list is then read again. */
export function useCreateMapping<L, E extends MappingEntry>(
  direction: MappingDirection<L, E>,
  guildId: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => direction.create(guildId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: direction.key(guildId) }),
  });
}

/** Saves one row; the view shows the change before the server answers and is corrected after. */
export function useUpdateMapping<L, E extends MappingEntry>(
  direction: MappingDirection<L, E>,
  guildId: string,
) {
  const queryClient = useQueryClient();
  const key = direction.key(guildId);
  return useMutation({
    mutationFn: (entry: E) => direction.update(guildId, entry),
    onMutate: async (entry) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<L>(key, (old) => (old ? direction.withEntry(old, entry) : old));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Remove: the row leaves the view once the server agreed. */
export function useDeleteMapping<L, E extends MappingEntry>(
  direction: MappingDirection<L, E>,
  guildId: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => direction.remove(guildId, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: direction.key(guildId) }),
  });
}
