import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Scheduled tasks as /admin shows them: each process registers the tasks it runs under its service name
 * (`api`) and instance name (`container`). The owner fires a task when `nextRunAt` has passed or
 * `runRequestedAt` is set (Run now from any process), by queueing its job.
 */
export const scheduledTasks = pgTable(
  'scheduled_tasks',
  {
    api: text('api').notNull(),
    container: text('container').notNull(),
    taskName: text('task_name').notNull(),
    timerSeconds: integer('timer_seconds').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    /** Set by Run now; the owning process clears it when it fires the task. */
    runRequestedAt: timestamp('run_requested_at', { withTimezone: true }),
    lastError: text('last_error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.api, t.container, t.taskName] })],
);

/** Live server processes: their roles and the state of their platform connections (for /admin). */
export const processInstances = pgTable('process_instances', {
  container: text('container').primaryKey(),
  api: text('api').notNull(),
  roles: text('roles').array().notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Refreshed every few seconds; an instance silent for a minute is gone. */
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  /** `{ discord: {...}, vrchat: {...} }` as the process sees them. */
  status: jsonb('status').notNull().default({}),
});
