import { retryWhenDatabaseLost } from '../../db/retry-when-lost.js';
import type { AppContext, LocalTaskScheduler } from '../../kernel/context.js';
import type { JobDefinition } from '../define.js';
import { findScheduledJob, jobRegistry, scheduledJobs } from '../registry.js';
import { claimDueTasks, recordFireFailure, registerTasks, type TaskOwner } from './task-store.js';

export const SCHEDULER_TICK_MS = 1_000;
/** A task whose job could not be queued is tried again after this long. */
const FIRE_RETRY_MS = 30_000;

/** The loop of one process; the context knows it as the kernel's LocalTaskScheduler. */
export interface TaskScheduler extends LocalTaskScheduler {
  owner: TaskOwner;
}

/**
 * The scheduler of one process (worker role): registers the process's scheduled tasks under its owner
 * (named by their method) and, every ~second, fires those that are due or were asked to run now, by
 * queueing their job. The job runs on any worker; the singleton key collapses a job already waiting.
 */
export async function startScheduler(
  ctx: AppContext,
  opts: { owner?: TaskOwner; registry?: readonly JobDefinition[]; tickMs?: number } = {},
): Promise<TaskScheduler> {
  const owner = opts.owner ?? { api: ctx.config.process.api, container: ctx.config.process.container };
  const registry = opts.registry ?? jobRegistry;
  const tasks = scheduledJobs(registry);
  // Again on a lost or refused connection (an upsert: safe to repeat): a connection terminated while the
  // process starts its roles must not end it.
  await retryWhenDatabaseLost(() =>
    registerTasks(
      ctx.db,
      owner,
      tasks.map((t) => ({
        taskName: t.schedule.method,
        timerSeconds: t.schedule.timerSeconds,
        runAtStart: t.schedule.runAtStart ?? false,
      })),
    ),
  );

  const fire = async () => {
    const claimed = await claimDueTasks(ctx.db, owner);
    for (const task of claimed) {
      try {
        const job = findScheduledJob(task.taskName, registry);
        if (!job) throw new Error(`No job runs the scheduled task ${task.taskName}`);
        await ctx.jobs.send(job, {}, { singletonKey: job.name });
      } catch (err) {
        ctx.log.warn({ err, task: task.taskName }, 'scheduled task: job not queued');
        await recordFireFailure(
          ctx.db,
          { ...owner, taskName: task.taskName },
          (err as Error).message,
          new Date(Date.now() + FIRE_RETRY_MS),
        );
      }
    }
  };
  // One pass at a time; a Run now arriving during a pass waits for it and then fires.
  let running: Promise<void> = Promise.resolve();
  const runDue = () => {
    running = running.then(fire, fire);
    return running;
  };

  const tickMs = opts.tickMs ?? SCHEDULER_TICK_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        runDue()
          .catch((err) => ctx.log.warn({ err }, 'scheduler tick failed'))
          .finally(loop);
      },
      tickMs * (0.8 + Math.random() * 0.4),
    );
    timer.unref();
  };
  loop();
  return {
    owner,
    runDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => {});
    },
  };
}
