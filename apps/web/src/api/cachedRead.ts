import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * One server's resource read through the query cache: its key (`[name, guildId]`, what mutations update or
 * invalidate), its query options (for loaders and tests) and its hook.
 */
export function guildRead<const Name extends string, T>(name: Name, read: (guildId: string) => Promise<T>) {
  const key = (guildId: string) => [name, guildId] as const;
  const query = (guildId: string) => queryOptions({ queryKey: key(guildId), queryFn: () => read(guildId) });
  function useRead(guildId: string) {
    return useQuery(query(guildId));
  }
  return { key, query, useRead };
}

/** A read asked again every `refreshMs` while shown (the admin pages' status panels): its query options and hook. */
export function polledRead<const Key extends readonly string[], T>(
  key: Key,
  read: () => Promise<T>,
  refreshMs: number,
) {
  const query = () => queryOptions({ queryKey: key, queryFn: read, refetchInterval: refreshMs });
  function useRead() {
    return useQuery(query());
  }
  return { query, useRead };
}
