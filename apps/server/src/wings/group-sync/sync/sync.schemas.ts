import { z } from 'zod';

const actionKind = z.enum([
  'invite',
  'acceptRequest',
  'remove',
  'addGroupRole',
  'removeGroupRole',
  'addDiscordRole',
  'removeDiscordRole',
]);

export const syncActionView = z.object({
  kind: actionKind,
  targetName: z.string(),
  discordUserId: z.string().nullable(),
  vrcUserId: z.string().nullable(),
  roleName: z.string().nullable(),
  reason: z.string(),
});

const warning = z.object({ kind: z.string(), message: z.string() });

/** Where this server's waiting sync stands among every server's waiting syncs (null when none waits). */
export const syncQueuePlace = z
  .object({
    /** Other servers' syncs the workers take before this one. */
    ahead: z.number().int(),
    /** Syncs running now (any server's). */
    running: z.number().int(),
    /** About how many seconds until it starts (the syncs ahead at the recent syncs' mean length). */
    estimatedSeconds: z.number().int(),
    /** The mean length of a recent sync, in seconds. */
    secondsPerSync: z.number(),
  })
  .nullable();

export const syncStatus = z.object({
  groupEnabled: z.boolean(),
  /** A sync of this server waiting in the queue or running now. */
  activity: z.object({ state: z.enum(['queued', 'running']), since: z.string() }).nullable(),
  /** The waiting sync's place in the queue and an estimate of its start. */
  queue: syncQueuePlace,
  /** When the scheduled full sync runs next (null: no running process has it switched on). */
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastResult: z.object({ applied: z.number(), failed: z.number(), held: z.number() }).nullable(),
  /** Removals awaiting a decision: how many, since when, the first 50 (`GET …/sync/held` pages through all). */
  held: z.object({ count: z.number(), heldAt: z.string(), actions: z.array(syncActionView) }).nullable(),
  /** Held removals a manager declined (Discard): still held, never applied, until the rules stop asking. */
  keptRemovals: z.number(),
  warnings: z.array(warning),
});

export const HELD_PAGE_SIZE = 50;
const PAGE = 'The page must be a whole number from 1.';
const PAGE_SIZE = 'The page size must be a whole number from 1 to 100.';

export const heldPageQuery = z.object({
  page: z.coerce
    .number({ error: PAGE })
    .int({ error: PAGE })
    .min(1, { error: PAGE })
    .max(1_000_000, { error: PAGE })
    .default(1),
  pageSize: z.coerce
    .number({ error: PAGE_SIZE })
    .int({ error: PAGE_SIZE })
    .min(1, { error: PAGE_SIZE })
    .max(100, { error: PAGE_SIZE })
    .default(HELD_PAGE_SIZE),
});

export const heldPageResult = z.object({
  /** Removals awaiting a decision, in all. */
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  actions: z.array(syncActionView),
});

export const syncPreview = z.object({
  total: z.number(),
  counts: z.record(z.string(), z.number()),
  actions: z.array(syncActionView),
  wouldHold: z.number(),
  complete: z.boolean(),
  /** How long carrying this out takes at the platforms' pace (VRChat 1 request/s), in seconds. */
  estimatedSeconds: z.number(),
});

export const syncQueued = z.object({
  /** Whether this request added a job (false: it joined one already waiting). */
  queued: z.boolean(),
  /** A sync of this server is running now; the waiting one starts when it ends. */
  running: z.boolean(),
  /** When the waiting sync starts at the earliest (ISO 8601), or null when none waits. */
  startsAt: z.string().nullable(),
  /** The waiting sync's place in the queue and an estimate of its start (null when none waits). */
  queue: syncQueuePlace,
});

export const heldDecision = z.object({
  decision: z.enum(['apply', 'discard', 'review'], {
    message: "The decision must be 'apply', 'discard' or 'review'.",
  }),
});

export const heldDecisionResult = z.object({ count: z.number() });
