/**
 * SQL on pg-boss 10's own job table, for what its API does not offer: a fetch that skips keys already
 * running, and a lease the worker renews. Pinned to pg-boss 10.4 (schema `pgboss`); pg-boss-queue.test.ts
 * and job-lease.test.ts exercise both, so a schema change in an upgrade fails there first.
 */

/**
 * A waiting job's priority aged by its wait, one point a minute: a job sent with priority 30 goes before
 * jobs of priority 0 that waited up to 30 minutes longer, never before older ones. With every priority 0 (most
 * queues) this is the age order; on PGlite, whose clock counts milliseconds, jobs sent within the same one tie
 * and come in any order. `j` is the job row.
 */
export const AGED_PRIORITY = `(j.priority + extract(epoch from now() - j.created_on) / 60)`;

/**
 * Takes the next job of one queue. pg-boss's own fetch takes the oldest waiting job even when a job with
 * its singleton key is running, fails on the stately unique index, and so stops the whole queue behind one
 * busy (or dead) key. `$2` names the worker (shown while the job runs). This one skips a key that is running; and a fresh job waits behind a retry of its key,
 * so a retry never collides with it when the running job fails or expires. `$3` (null: no limit) caps the jobs
 * whose payload says `long: true` running at once over every process (one process's loops fetch in turn,
 * pg-boss-queue.ts fetchInTurn; two processes fetching at the same moment may pass it by one): with more
 * loops than that, short jobs always find one free.
 */
export const fetchNextJobSql = `
WITH next AS (
  SELECT j.id, j.state AS was_state, j.started_on AS was_started_on, j.output AS was_output
  FROM pgboss.job j
  WHERE j.name = $1
    AND j.state < 'active'
    AND j.start_after < now()
    AND (
      COALESCE(j.policy, '') NOT IN ('singleton', 'stately')
      OR NOT EXISTS (
        SELECT 1 FROM pgboss.job o
        WHERE o.name = j.name AND o.id <> j.id
          AND COALESCE(o.singleton_key, '') = COALESCE(j.singleton_key, '')
          AND (o.state = 'active' OR (o.state = 'retry' AND j.state = 'created'))
      )
    )
    AND (
      $3::int IS NULL
      OR COALESCE(j.data->>'long', 'false') <> 'true'
      OR (SELECT count(*) FROM pgboss.job a
          WHERE a.name = j.name AND a.state = 'active' AND a.data->>'long' = 'true') < $3::int
    )
  ORDER BY ${AGED_PRIORITY} DESC, j.created_on, j.id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
UPDATE pgboss.job j SET
  state = 'active',
  started_on = now(),
  -- Which worker holds it (pg-boss overwrites output with the result when it completes or fails).
  output = jsonb_build_object('worker', $2::text),
  retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
FROM next
WHERE j.name = $1 AND j.id = next.id
RETURNING j.id, j.data, next.was_state::text AS "wasState", next.was_started_on::text AS "wasStartedOn",
  next.was_output::text AS "wasOutput"`;

/**
 * Puts a job just fetched back as it was before the fetch (`$3`–`$5`: the fetch's `wasState`, `wasStartedOn`,
 * `wasOutput`), for a worker that was told to stop while it fetched: it never ran, so it is not a retry.
 */
export const handBackJobSql = `
UPDATE pgboss.job SET
  state = $3::pgboss.job_state,
  started_on = $4::timestamptz,
  output = $5::jsonb,
  retry_count = CASE WHEN $4::timestamptz IS NOT NULL THEN retry_count - 1 ELSE retry_count END
WHERE name = $1 AND id = $2 AND state = 'active'`;

/**
 * Renews a running job's lease: it expires (and pg-boss retries it elsewhere) `$3` seconds from now unless
 * renewed again. Answers no row when the job is no longer active (it expired and was taken over).
 */
export const renewLeaseSql = `
UPDATE pgboss.job SET expire_in = (now() - started_on) + make_interval(secs => $3)
WHERE name = $1 AND id = $2 AND state = 'active'
RETURNING id`;

/** The waiting and running jobs of one singleton key: when the next one starts, whether one runs. */
export const jobsOfKeySql = `
SELECT state, start_after AS "startAfter"
FROM pgboss.job
WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry', 'active')`;

/** The running jobs of one queue and singleton key. */
export const runningOfKeySql = `
SELECT id FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`;

/** The running jobs, of every queue but `$2`, whose singleton key or payload names `$1` (a user being erased). */
export const runningNamingSql = `
SELECT id FROM pgboss.job
WHERE state = 'active' AND name <> $2
  AND (strpos(COALESCE(singleton_key, ''), $1) > 0 OR strpos(COALESCE(data::text, ''), $1) > 0)`;

/** Which of the jobs `$1` still run. */
export const stillRunningSql = `
SELECT count(*)::int AS n FROM pgboss.job WHERE id = ANY($1::uuid[]) AND state = 'active'`;

/** Which of the queues `$1` have a job waiting whose time has come (job-wakeups.ts: one query for all). */
export const readyQueuesSql = `
SELECT DISTINCT j.name
FROM pgboss.job j
WHERE j.name = ANY($1::text[]) AND j.state < 'active' AND j.start_after < now()`;
