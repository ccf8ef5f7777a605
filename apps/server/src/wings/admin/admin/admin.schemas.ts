import { z } from 'zod';

export const scheduledTask = z.object({
  api: z.string(),
  container: z.string(),
  /** The task's name: its URLs use it as `{taskName}`. */
  method: z.string(),
  /** The task in words ('Deliver Discord logs') and one line on what it does. */
  title: z.string(),
  description: z.string(),
  /** The queue its runs go to. */
  job: z.string().nullable(),
  nextRun: z.string().nullable(),
  lastRun: z.string().nullable(),
  /** Seconds between runs. */
  timer: z.number().int(),
  enabled: z.boolean(),
  /** Run now was pressed and the owner has not fired it yet. */
  runRequested: z.boolean(),
  /** Why the last attempt to queue the job failed, if it did. */
  lastError: z.string().nullable(),
});
z.globalRegistry.add(scheduledTask, { id: 'ScheduledTask' });

const name = z.string().min(1).max(200);
export const taskParams = z.object({ api: name, container: name, taskName: name });
export const taskList = z.object({ tasks: z.array(scheduledTask) });

export const vrchatState = z.object({
  status: z.enum(['ok', 'needs_2fa', 'rate_limited', 'unreachable', 'logged_out', 'login_failed']),
  rateLimitedUntil: z.string().optional(),
  lastError: z.string().optional(),
  since: z.string(),
  lastRateLimitedAt: z.string().optional(),
});
z.globalRegistry.add(vrchatState, { id: 'VrchatState' });

export const processStatus = z.object({
  api: z.string(),
  container: z.string(),
  roles: z.array(z.string()),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  discord: z.object({ gateway: z.string() }),
  vrchat: vrchatState.nullable(),
  /** The process that answered this request. */
  self: z.boolean(),
});

/** One VRChat bot account: its groups, its login (as the answering process sees it) and its budget's wait. */
export const vrchatAccountStatus = z.object({
  account: z.string(),
  groups: z.number().int(),
  /** VRChat lets an account be in at most this many groups. */
  groupLimit: z.number().int(),
  vrchat: vrchatState.nullable(),
  /** How long a request would wait for this account's shared budget now (a 429 pause or the next token). */
  budgetWaitSeconds: z.number().int(),
});
z.globalRegistry.add(vrchatAccountStatus, { id: 'VrchatAccountStatus' });

const queueCounts = { queued: z.number().int(), active: z.number().int(), failedLast24h: z.number().int() };
export const adminStatus = z.object({
  processes: z.array(processStatus),
  queue: z.object({ ...queueCounts, queues: z.array(z.object({ name: z.string(), ...queueCounts })) }),
  vrchatAccounts: z.array(vrchatAccountStatus),
});
z.globalRegistry.add(adminStatus, { id: 'AdminStatus' });

/** One job of pg-boss's queue or archive, newest first on /admin. */
export const recentJob = z.object({
  id: z.string(),
  /** The queue (job type) name, and the job in words. */
  name: z.string(),
  title: z.string(),
  state: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** For a failed job: the first line of its error. */
  error: z.string().nullable(),
});
z.globalRegistry.add(recentJob, { id: 'RecentJob' });
export const recentJobs = z.object({ jobs: z.array(recentJob) });
