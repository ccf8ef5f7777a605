import type { JobPayload, JobType } from '../kernel/job-catalog.js';

/**
 * Durable work: a job survives a crash of the process that queued it and runs on some `worker` process.
 * The implementation is pg-boss on the product's own database (PGlite or PostgreSQL); each job type is
 * declared once in ./catalog.ts and bound to its handler in ./registry.ts.
 */
export interface SendJobOptions {
  /** Jobs with the same key that are queued or active at once collapse into one. */
  singletonKey?: string;
  /** Do not run before this many seconds from now. */
  startAfterSeconds?: number;
  /**
   * Taken before jobs with less (default 0). Waiting ages a job one point a minute (boss-sql.ts), so a job
   * with less is passed over for at most as many minutes as the difference: nothing starves.
   */
  priority?: number;
}

/** Where the jobs of one singleton key stand: one running, and when the next waiting one may start. */
export interface KeyedJobState {
  running: boolean;
  /** The earliest start of a waiting job (not before now), or null when none waits. */
  startsAt: Date | null;
}

export interface JobQueue {
  /** Queues a job of a catalog type; answers its id, or null when an identical singleton is already waiting. */
  send<T extends JobType>(job: T, payload: JobPayload<T>, opts?: SendJobOptions): Promise<string | null>;
  /** Where the jobs of one singleton key stand (queues that can tell). */
  jobsOfKey?(job: JobType, singletonKey: string): Promise<KeyedJobState>;
  /**
   * Resolves when the jobs running now that match `which` have finished (jobs started later are not waited
   * for), answering how many there were; stops waiting after `timeoutMs` or when `signal` aborts, answering
   * as many. Queues that cannot tell answer 0 at once.
   */
  untilRunningFinish?(
    which: RunningJobFilter,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<number>;
}

/** Which running jobs to wait for: of one type (and singleton key), or every type but one whose key or payload names a text. */
export type RunningJobFilter =
  | { job: JobType; singletonKey: string }
  | { naming: string; exceptJob: JobType };

/** A queue that refuses work, for contexts built without a database-backed queue (OpenAPI export). */
export const noJobQueue: JobQueue = {
  async send(job) {
    throw new Error(`No job queue in this process (job ${job.name})`);
  },
};
