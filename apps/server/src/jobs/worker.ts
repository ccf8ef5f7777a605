import type { AppContext } from '../kernel/context.js';
import { AppError, isFinal } from '../kernel/errors.js';
import { metrics } from '../observability/metrics.js';
import { runStoppable } from '../platforms/vrchat/interactive.js';
import type { JobDefinition } from './define.js';
import { PgBossJobQueue, type QueuedJob } from './pg-boss-queue.js';
import { jobRegistry } from './registry.js';

/**
 * Runs one job: the payload is checked as it leaves the queue. A failure whose kind a retry cannot fix
 * (refused, missing, conflict, invalid) gives up and says why; anything else (limited, unavailable, a platform
 * unreachable, a database hiccup) fails and pg-boss retries it as the registry says.
 */
export async function runJob(
  ctx: AppContext,
  def: JobDefinition,
  job: QueuedJob,
  signal: AbortSignal = new AbortController().signal,
): Promise<unknown> {
  const parsed = def.payload.safeParse(job.data);
  if (!parsed.success)
    throw new Error(`Job ${def.name} (${job.id}) has an invalid payload: ${parsed.error.message}`);
  const started = Date.now();
  const count = (outcome: string) => {
    metrics.jobRuns.inc({ job: def.name, outcome });
    metrics.jobDuration.observe({ job: def.name }, (Date.now() - started) / 1000);
  };
  try {
    // VRChat calls still queued in the pacer when the run is told to stop are refused, not sent.
    // Background work is shared per server: one server's sync does not hold another's VRChat calls.
    // A job without a payload (scheduled tasks) parses to undefined.
    const guildId = (parsed.data as { guildId?: unknown } | undefined)?.guildId;
    const share = typeof guildId === 'string' ? `guild:${guildId}` : `job:${def.name}`;
    await runStoppable(signal, () => def.run(ctx, parsed.data, signal), share);
    ctx.log.debug({ job: def.name, id: job.id, ms: Date.now() - started }, 'job done');
    count('done');
    return { ms: Date.now() - started };
  } catch (err) {
    if (err instanceof AppError && isFinal(err.kind)) {
      ctx.log.warn({ err, job: def.name, id: job.id }, 'job refused; not retrying');
      count('gave_up');
      return { gaveUp: err.message };
    }
    ctx.log.warn({ err, job: def.name, id: job.id }, 'job failed; pg-boss retries it');
    count('failed');
    throw err;
  }
}

/**
 * The worker role: works every registered queue of this process's job queue (a queue whose definition says
 * so with several loops, each taking one job at a time). Jobs are written to be
 * harmless when run twice (a retry after a crash, or two timers racing).
 */
export async function startJobWorker(
  ctx: AppContext,
  registry: readonly JobDefinition[] = jobRegistry,
): Promise<(graceMs?: number) => Promise<void>> {
  const queue = ctx.jobs;
  if (!(queue instanceof PgBossJobQueue)) throw new Error('The worker role needs the pg-boss job queue');
  const ids = registry.flatMap((def) =>
    Array.from({ length: Math.max(1, def.runsAtOnce?.(ctx) ?? 1) }, () =>
      queue.work(def.name, (job, signal) => runJob(ctx, def, job, signal), {
        longAtOnce: def.longAtOnce?.(ctx),
      }),
    ),
  );
  // A job still running after the grace time is failed at once, so another worker retries it (job-loop.ts).
  return async (graceMs?: number) => {
    await Promise.all(ids.map((id) => queue.offWork(id, graceMs)));
  };
}
