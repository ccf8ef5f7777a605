import { AGED_PRIORITY } from '../../../jobs/boss-sql.js';
import type { AppContext } from '../../../kernel/context.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';

/** A sync's length when no recent one was measured (a small server: a few group reads and writes). */
export const DEFAULT_SYNC_SECONDS = 10;
/** How many recent finished syncs the per-sync length is measured from. */
const MEASURED_SYNCS = 50;

/** Where a server's waiting sync stands in the queue, and roughly when it starts. */
export interface SyncQueuePlace {
  /** Other servers' syncs waiting that the workers take before this one. */
  ahead: number;
  /** Syncs running now (this server's own included). */
  running: number;
  /** About how many seconds until it starts: the syncs ahead at the measured length, shared by the workers. */
  estimatedSeconds: number;
  /** The measured length of one sync (seconds; the mean of recent ones, DEFAULT_SYNC_SECONDS before any). */
  secondsPerSync: number;
}

/**
 * The server's waiting sync's place in the queue (pg-boss's own table, ordered as the workers take jobs:
 * priority aged by the wait, then age; jobs/boss-sql.ts), or null when none of its syncs waits. The estimate: the syncs ahead, plus half of
 * those running, at the mean length of the last MEASURED_SYNCS finished syncs, divided among the workers
 * busy now (each worker runs one sync at a time); and not before the job's own start time.
 */
export async function syncQueuePlace(ctx: AppContext, guildId: string): Promise<SyncQueuePlace | null> {
  const exec = ctx.database.executeSql;
  const [{ ready }] = (await exec(`select to_regclass('pgboss.job') is not null as ready`)).rows;
  if (!ready) return null;
  const { rows } = await exec(
    `with mine as (
       select id, priority, created_on, start_after from pgboss.job
       where name = $1 and singleton_key = $2 and state in ('created', 'retry')
       order by start_after, created_on limit 1
     ), recent as (
       select extract(epoch from completed_on - started_on) as seconds from pgboss.job
       where name = $1 and state = 'completed' and started_on is not null and completed_on is not null
       order by completed_on desc limit ${MEASURED_SYNCS}
     )
     select
       (select count(*) from pgboss.job j where j.name = $1 and j.state in ('created', 'retry')
          and j.singleton_key is distinct from $2
          and ((${AGED_PRIORITY}, m.created_on, m.id) > (${AGED_PRIORITY.replaceAll('j.', 'm.')}, j.created_on, j.id)))::int as ahead,
       (select count(*) from pgboss.job where name = $1 and state = 'active')::int as running,
       greatest(0, extract(epoch from m.start_after - now()))::float8 as delay,
       (select avg(seconds) from recent)::float8 as mean
     from mine m`,
    [syncGuildJob.name, guildId],
  );
  if (rows.length === 0) return null;
  const { ahead, running, delay, mean } = rows[0] as {
    ahead: number;
    running: number;
    delay: number;
    mean: number | null;
  };
  const secondsPerSync = mean && mean > 0 ? mean : DEFAULT_SYNC_SECONDS;
  const workers = Math.max(1, running);
  const queued = ((Number(ahead) + Number(running) / 2) * secondsPerSync) / workers;
  return {
    ahead: Number(ahead),
    running: Number(running),
    estimatedSeconds: Math.ceil(Math.max(Number(delay), queued)),
    secondsPerSync: Math.round(secondsPerSync * 10) / 10,
  };
}
