import { inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { auditLog, LINK_CHANGE_KINDS } from '../db/schema/index.js';

/** Rows one statement deletes: each batch is its own short transaction, so no lock is held for long. */
export const RETENTION_BATCH = 2000;
/** Batches one run deletes at most per table; what is left goes in the next hourly run. */
const MAX_BATCHES_PER_RUN = 250;

const DAY_MS = 86_400_000;

/** Runs `batch` until it deletes fewer rows than a full batch (or the run's cap); answers the rows deleted. */
async function inBatches(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
    const n = await batch();
    total += n;
    if (n < RETENTION_BATCH) break;
  }
  return total;
}

/** Deletes audit rows older than `days` (every server's), a batch at a time. */
export function purgeOldAuditLog(db: Db, days: number, now = new Date()): Promise<number> {
  if (days <= 0) return Promise.resolve(0);
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  return inBatches(async () => {
    const old = db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(lt(auditLog.createdAt, cutoff))
      .limit(RETENTION_BATCH);
    const gone = await db.delete(auditLog).where(inArray(auditLog.id, old)).returning({ id: auditLog.id });
    return gone.length;
  });
}

/**
 * Deletes processed link events older than `days`, a batch at a time. The link changes among them are added
 * to their member's `link_change_summaries` row in the same statement (a row another run deleted first is
 * neither returned nor counted twice), so Link Count and Last Link Change stay what they were. Events the
 * role work has not processed yet are kept whatever their age.
 */
export function purgeOldLinkEvents(db: Db, days: number, now = new Date()): Promise<number> {
  if (days <= 0) return Promise.resolve(0);
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const kinds = sql.join(
    LINK_CHANGE_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  return inBatches(async () => {
    const result = await db.execute<{ n: number }>(sql`
      with gone as (
        delete from link_events where id in (
          select id from link_events
          where created_at < ${cutoff.toISOString()}::timestamptz and processed_at is not null
          limit ${RETENTION_BATCH}
        )
        returning discord_user_id, kind, created_at
      ), changes as (
        select discord_user_id, count(*)::int as changes, max(created_at) as last_changed_at
        from gone where kind in (${kinds}) group by discord_user_id
      ), summed as (
        insert into link_change_summaries as s (discord_user_id, changes, last_changed_at)
        select discord_user_id, changes, last_changed_at from changes
        on conflict (discord_user_id) do update set
          changes = s.changes + excluded.changes,
          last_changed_at = greatest(s.last_changed_at, excluded.last_changed_at)
      )
      select count(*)::int as n from gone`);
    return Number(result.rows[0]?.n ?? 0);
  });
}

/** The history tables' retention (AUDIT_LOG_RETENTION_DAYS, LINK_EVENTS_RETENTION_DAYS), for `retention.purge`. */
export async function purgeOldHistory(
  db: Db,
  days: { auditLogDays: number; linkEventsDays: number },
  now = new Date(),
) {
  const auditRows = await purgeOldAuditLog(db, days.auditLogDays, now);
  const linkEvents = await purgeOldLinkEvents(db, days.linkEventsDays, now);
  return { auditRows, linkEvents };
}
