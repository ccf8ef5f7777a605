import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../db/client.js';
import { type AuditEntry, audit } from './audit.js';
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

/**
 * Deletes the row `where` picks from `table` and audit-logs it in the same transaction, the entry built from the
 * deleted row. Answers the row, or undefined (and nothing is logged) when none matched.
 */
export async function deleteAudited<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  entry: (row: T['$inferSelect']) => AuditEntry,
): Promise<T['$inferSelect'] | undefined> {
  return db.transaction(async (tx) => {
    const [row] = (await tx.delete(table).where(where).returning()) as T['$inferSelect'][];
    if (row) await audit(tx, entry(row));
    return row;
  });
}
