import { and, eq, isNotNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { processInstances, scheduledTasks } from '../../db/schema/index.js';

/** The process a task belongs to: the service name and the instance name (`config.process`). */
export interface TaskOwner {
  api: string;
  container: string;
}
export interface TaskKey extends TaskOwner {
  taskName: string;
}
export type TaskRow = typeof scheduledTasks.$inferSelect;

/** A process without a heartbeat for this long is gone: /admin no longer shows it or its tasks. */
export const PROCESS_GONE_AFTER_SECONDS = 60;

const iso = (d: Date) => d.toISOString();
const keyIs = (k: TaskKey) =>
  and(
    eq(scheduledTasks.api, k.api),
    eq(scheduledTasks.container, k.container),
    eq(scheduledTasks.taskName, k.taskName),
  );

/**
 * Records the tasks a process runs. A task seen before under this owner (a restart with the same
 * INSTANCE_NAME) keeps its Enabled state and its times; the timer follows the code. Tasks this process no
 * longer has are removed.
 */
export async function registerTasks(
  db: Queryable,
  owner: TaskOwner,
  tasks: { taskName: string; timerSeconds: number; runAtStart: boolean }[],
  now = new Date(),
): Promise<void> {
  for (const task of tasks) {
    const firstRun = task.runAtStart ? now : new Date(now.getTime() + task.timerSeconds * 1000);
    await db
      .insert(scheduledTasks)
      .values({ ...owner, taskName: task.taskName, timerSeconds: task.timerSeconds, nextRunAt: firstRun })
      .onConflictDoUpdate({
        target: [scheduledTasks.api, scheduledTasks.container, scheduledTasks.taskName],
        set: { timerSeconds: task.timerSeconds, updatedAt: now },
      });
  }
  const names = tasks.map((t) => t.taskName);
  await db
    .delete(scheduledTasks)
    .where(
      and(
        eq(scheduledTasks.api, owner.api),
        eq(scheduledTasks.container, owner.container),
        names.length ? notInArray(scheduledTasks.taskName, names) : undefined,
      ),
    );
}

/**
 * Claims this owner's tasks that are due (enabled and past their next run) or asked to run now, moving
 * their times on in the same statement. Concurrent claimers (a Run now answered by the owner while its
 * loop ticks) cannot both get a task: the second sees the moved times and skips it.
 */
export async function claimDueTasks(db: Queryable, owner: TaskOwner, now = new Date()): Promise<TaskRow[]> {
  return db
    .update(scheduledTasks)
    .set({
      lastRunAt: now,
      nextRunAt: sql`${iso(now)}::timestamptz + ${scheduledTasks.timerSeconds} * interval '1 second'`,
      runRequestedAt: null,
      lastError: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(scheduledTasks.api, owner.api),
        eq(scheduledTasks.container, owner.container),
        or(
          and(eq(scheduledTasks.enabled, true), lte(scheduledTasks.nextRunAt, now)),
          isNotNull(scheduledTasks.runRequestedAt),
        ),
      ),
    )
    .returning();
}

/** A fired task whose job could not be queued: keep the reason and try again shortly. */
export async function recordFireFailure(db: Queryable, key: TaskKey, message: string, retryAt: Date) {
  await db
    .update(scheduledTasks)
    .set({ lastError: message.slice(0, 500), nextRunAt: retryAt, updatedAt: new Date() })
    .where(keyIs(key));
}

/** Only tasks of live processes (a heartbeat within the last minute). */
const ownerIsLive = sql.raw(`exists (select 1 from process_instances p
  where p.container = scheduled_tasks.container and p.api = scheduled_tasks.api
  and p.heartbeat_at > now() - interval '${PROCESS_GONE_AFTER_SECONDS} seconds')`);

export async function listLiveTasks(db: Queryable): Promise<TaskRow[]> {
  return db
    .select()
    .from(scheduledTasks)
    .where(ownerIsLive)
    .orderBy(scheduledTasks.api, scheduledTasks.container, scheduledTasks.taskName);
}

/** Flips Enabled of a live process's task; null when there is no such task. */
export async function toggleTask(db: Queryable, key: TaskKey): Promise<TaskRow | null> {
  const [row] = await db
    .update(scheduledTasks)
    .set({ enabled: sql`not ${scheduledTasks.enabled}`, updatedAt: new Date() })
    .where(and(keyIs(key), ownerIsLive))
    .returning();
  return row ?? null;
}

/** Asks the owning process to run the task at its next tick; null when there is no such task. */
export async function requestRun(db: Queryable, key: TaskKey, now = new Date()): Promise<TaskRow | null> {
  const [row] = await db
    .update(scheduledTasks)
    .set({ runRequestedAt: now, updatedAt: now })
    .where(and(keyIs(key), ownerIsLive))
    .returning();
  return row ?? null;
}

export async function findTask(db: Queryable, key: TaskKey): Promise<TaskRow | null> {
  const [row] = await db.select().from(scheduledTasks).where(keyIs(key));
  return row ?? null;
}

/** Forgets processes silent for a day, and their tasks (instance names with a pid never come back). */
export async function pruneGoneProcesses(db: Queryable): Promise<void> {
  await db.delete(processInstances).where(sql`${processInstances.heartbeatAt} < now() - interval '1 day'`);
  await db
    .delete(scheduledTasks)
    .where(
      sql.raw(
        'not exists (select 1 from process_instances p where p.container = scheduled_tasks.container and p.api = scheduled_tasks.api)',
      ),
    );
}
