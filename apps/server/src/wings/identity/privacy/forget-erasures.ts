import type { ExecuteSql } from '../../../db/client.js';
import { accountEraseJob } from '../../../kernel/job-catalog.js';
import type { ErasureRequest } from './account-erasure.js';

/** The requests of finished erasures still in the queue (the hourly purge erases each once more, then forgets them). */
export async function finishedErasures(
  executeSql: ExecuteSql,
): Promise<(ErasureRequest & { requestedAt: string })[]> {
  const { rows } = await executeSql(`select to_regclass('pgboss.job') is not null as present`);
  if (!rows[0]?.present) return [];
  const { rows: jobs } = await executeSql(
    `select data, started_on from pgboss.job where name = $1 and state = 'completed'
     union all select data, started_on from pgboss.archive where name = $1 and state = 'completed'`,
    [accountEraseJob.name],
  );
  // A request queued before requestedAt was recorded acted on everything up to its run.
  return jobs.map((j) => {
    const req = j.data as ErasureRequest;
    return { ...req, requestedAt: req.requestedAt ?? new Date(j.started_on as string | Date).toISOString() };
  });
}

/**
 * The job queue's copy of finished erasures: pg-boss keeps a completed job (its payload names the deleted
 * user and their pseudonym) for hours and its archive for days. The hourly retention purge deletes them, so
 * the queue does not keep what the erasure removed. Failed ones stay: they are work still to do.
 */
export async function forgetFinishedErasures(executeSql: ExecuteSql): Promise<void> {
  const { rows } = await executeSql(`select to_regclass('pgboss.job') is not null as present`);
  if (!rows[0]?.present) return;
  await executeSql(`delete from pgboss.job where name = $1 and state = 'completed'`, [accountEraseJob.name]);
  await executeSql(`delete from pgboss.archive where name = $1 and state = 'completed'`, [
    accountEraseJob.name,
  ]);
}

/**
 * Finished jobs whose payload or key names the user (e.g. their Linked Roles updates): deleted with the
 * erasure, from the queue and its archive. Jobs still waiting or running are left to finish.
 */
export async function forgetFinishedJobsOf(executeSql: ExecuteSql, userId: string): Promise<void> {
  const { rows } = await executeSql(`select to_regclass('pgboss.job') is not null as present`);
  if (!rows[0]?.present) return;
  for (const table of ['pgboss.job', 'pgboss.archive']) {
    await executeSql(
      `delete from ${table} where state in ('completed', 'cancelled', 'failed') and name <> $2
         and (strpos(coalesce(data::text, ''), $1) > 0 or strpos(coalesce(singleton_key, ''), $1) > 0
           or strpos(coalesce(output::text, ''), $1) > 0)`,
      [userId, accountEraseJob.name],
    );
  }
}
