import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, AnyPgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';

/** Where a module keeps the names of the things it owns: its table, id and name columns, and its server column. */
export interface NamedTable {
  table: AnyPgTable;
  id: AnyPgColumn;
  name: AnyPgColumn;
  /** Limits the rows to one server's. */
  guild?: AnyPgColumn;
}

/** The current names of these ids in a module's table (one server's rows, if it has a server column). */
export function namesIn(
  db: Queryable,
  { table, id, name, guild }: NamedTable,
  ids: readonly string[],
  guildId: string,
): Promise<{ id: string; name: string | null }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: sql<string>`${id}::text`, name: sql<string | null>`${name}` })
    .from(table)
    .where(and(guild ? eq(guild, guildId) : undefined, inArray(id, [...ids])));
}
