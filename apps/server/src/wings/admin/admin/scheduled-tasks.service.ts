import { findScheduledJob } from '../../../jobs/registry.js';
import {
  findTask,
  listLiveTasks,
  requestRun,
  type TaskKey,
  type TaskRow,
  toggleTask,
} from '../../../jobs/scheduled-tasks/task-store.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { requirePlatformAdmin } from '../../identity/index.js';

/** A task as /admin shows it: named by its method, with the job it queues. */
export function toScheduledTask(row: TaskRow) {
  const job = findScheduledJob(row.taskName);
  return {
    api: row.api,
    container: row.container,
    method: row.taskName,
    // A task another version of the product still runs may be unknown here: named by its method then.
    title: job?.title ?? row.taskName,
    description: job?.summary ?? '',
    job: job?.name ?? null,
    nextRun: row.nextRunAt?.toISOString() ?? null,
    lastRun: row.lastRunAt?.toISOString() ?? null,
    timer: row.timerSeconds,
    enabled: row.enabled,
    runRequested: row.runRequestedAt !== null,
    lastError: row.lastError,
  };
}

const unknownTask = (k: TaskKey) =>
  missing(`No running process ${k.container} of ${k.api} has a scheduled task named ${k.taskName}.`);
const target = (k: TaskKey) => `${k.api}/${k.container}/${k.taskName}`;

/** Tasks of live processes, grouped by api and container (ordered so). */
export async function listScheduledTasks(ctx: AppContext, userId: string) {
  requirePlatformAdmin(ctx, userId);
  return { tasks: (await listLiveTasks(ctx.db)).map(toScheduledTask) };
}

/** Flips Enabled; the owning process reads it from the database at its next tick. */
export async function toggleScheduledTask(ctx: AppContext, userId: string, key: TaskKey) {
  requirePlatformAdmin(ctx, userId);
  const row = await ctx.db.transaction(async (tx) => {
    const toggled = await toggleTask(tx, key);
    if (!toggled) throw unknownTask(key);
    await audit(tx, {
      action: 'scheduled_task.toggled',
      actor: userActor(userId),
      targetId: target(key),
      details: { enabled: toggled.enabled },
    });
    return toggled;
  });
  return toScheduledTask(row);
}

/**
 * Run now: marks the task; its owner fires it at its next tick (about a second), or at once when the
 * owner is the process answering. A disabled task runs too: Run now is an explicit, one-off request.
 */
export async function runScheduledTask(ctx: AppContext, userId: string, key: TaskKey) {
  requirePlatformAdmin(ctx, userId);
  let row = await ctx.db.transaction(async (tx) => {
    const requested = await requestRun(tx, key);
    if (!requested) throw unknownTask(key);
    await audit(tx, {
      action: 'scheduled_task.run_requested',
      actor: userActor(userId),
      targetId: target(key),
    });
    return requested;
  });
  const local = ctx.scheduler;
  if (local && local.owner.api === key.api && local.owner.container === key.container) {
    await local.runDue();
    row = (await findTask(ctx.db, key)) ?? row;
  }
  return toScheduledTask(row);
}
