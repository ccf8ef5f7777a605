import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client.js';
import { missing } from './errors.js';

/** The row `where` picks from `table`; a `missing` error saying `notFound` when there is none. */
export async function rowOrMissing<T extends PgTable>(
  db: Queryable,
  table: T,
  where: SQL | undefined,
  notFound: string,
): Promise<T['$inferSelect']> {
  const [row] = (await db
    .select()
    .from(table as PgTable)
    .where(where)) as T['$inferSelect'][];
  if (!row) throw missing(notFound);
  return row;
}
