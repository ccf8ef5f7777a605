import type { z } from 'zod';
import type { AppContext } from '../kernel/context.js';
import type { JobType } from '../kernel/job-catalog.js';

/**
 * What a job does. `signal` aborts when the run's time is up (expireInSeconds) or the worker stops: a handler
 * that loops over many items checks it between items and returns early, so the next run resumes.
 */
export type JobRun<P extends z.ZodType> = (
  ctx: AppContext,
  payload: z.output<P>,
  signal: AbortSignal,
) => Promise<void>;

/** A job type with what it does: bound once, in jobs/registry.ts (a run without a signal is never stopped). */
export interface JobDefinition<P extends z.ZodType = z.ZodType> extends JobType<P> {
  run(ctx: AppContext, payload: z.output<P>, signal?: AbortSignal): Promise<void>;
  /** How many of this queue's jobs one worker process runs at once (default 1). */
  runsAtOnce?(ctx: AppContext): number;
  /**
   * How many of this queue's jobs sent with `long: true` in their payload run at once over every process
   * (default: no limit). Below runsAtOnce, a loop is always left for the short ones.
   */
  longAtOnce?(ctx: AppContext): number;
}

/** The signal of a run nothing stops (tests and callers that run a handler directly). */
const neverAborted = new AbortController().signal;

/** Binds a catalog job type to its handler. */
export const handleJob = <P extends z.ZodType>(type: JobType<P>, run: JobRun<P>): JobDefinition<P> => ({
  ...type,
  run: (ctx, payload, signal = neverAborted) => run(ctx, payload, signal),
});

/** A job type declared with its handler in one go (tests' own job types). */
export const defineJob = <P extends z.ZodType>(def: JobDefinition<P>): JobDefinition<P> => def;
