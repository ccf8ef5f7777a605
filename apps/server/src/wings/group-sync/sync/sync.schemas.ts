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

export const syncStatus = z.object({
  groupEnabled: z.boolean(),
  /** A sync of this server waiting in the queue or running now. */
  activity: z.object({ state: z.enum(['queued', 'running']), since: z.string() }).nullable(),
  /** When the scheduled full sync runs next (null: no running process has it switched on). */
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastResult: z.object({ applied: z.number(), failed: z.number(), held: z.number() }).nullable(),
  held: z.object({ count: z.number(), heldAt: z.string(), actions: z.array(syncActionView) }).nullable(),
  warnings: z.array(warning),
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
});

export const heldDecision = z.object({
  decision: z.enum(['apply', 'discard'], { message: "The decision must be 'apply' or 'discard'." }),
});

export const heldDecisionResult = z.object({ count: z.number() });
