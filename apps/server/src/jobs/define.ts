import type { z } from 'zod';
import type { AppContext } from '../context.js';

/** A job type, declared once: its queue settings, payload and (for scheduled ones) its timer. */
export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  /** Checked when the job is sent and again when it is taken from the queue. */
  payload: P;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /** A run taking longer fails (and is retried). */
  expireInSeconds: number;
  /**
   * Scheduled tasks: the default timer, the method (the task's name on /admin and in its URLs), and whether
   * to run once at start.
   */
  schedule?: { timerSeconds: number; method: string; runAtStart?: boolean };
  run(ctx: AppContext, payload: z.output<P>): Promise<void>;
}

/** Keeps the payload type of one definition while the registry holds many. */
export const defineJob = <P extends z.ZodType>(def: JobDefinition<P>): JobDefinition<P> => def;
