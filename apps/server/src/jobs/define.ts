import type { z } from 'zod';
import type { AppContext } from '../kernel/context.js';
import type { JobType } from '../kernel/job-catalog.js';

/** A job type with what it does: bound once, in jobs/registry.ts. */
export interface JobDefinition<P extends z.ZodType = z.ZodType> extends JobType<P> {
  run(ctx: AppContext, payload: z.output<P>): Promise<void>;
}

/** Binds a catalog job type to its handler. */
export const handleJob = <P extends z.ZodType>(
  type: JobType<P>,
  run: (ctx: AppContext, payload: z.output<P>) => Promise<void>,
): JobDefinition<P> => ({ ...type, run });

/** A job type declared with its handler in one go (tests' own job types). */
export const defineJob = <P extends z.ZodType>(def: JobDefinition<P>): JobDefinition<P> => def;
