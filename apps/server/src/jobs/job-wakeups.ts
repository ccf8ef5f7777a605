import type { FastifyBaseLogger } from 'fastify';
import type { BossDb } from './boss-db.js';
import { readyQueuesSql } from './boss-sql.js';

/**
 * Tells a process's idle job loops when their queue has a job to take. One query a second asks which of the
 * idle queues have a job due (instead of each loop polling its own queue: 17 loops' fetches a second took a
 * fifth of the single demo process's CPU under load, its embedded database running on the event loop), and a
 * job this process sends wakes its queue at once. Jobs sent by another process are seen by the next poll.
 */
export function createJobWakeups(db: BossDb, log: FastifyBaseLogger, pollMs: number) {
  const idle = new Map<string, Set<() => void>>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  const wake = (name: string) => {
    const waiters = idle.get(name);
    if (!waiters) return;
    idle.delete(name);
    for (const resolve of waiters) resolve();
  };
  const poll = async () => {
    if (polling || idle.size === 0) return;
    polling = true;
    try {
      const { rows } = await db.executeSql(readyQueuesSql, [[...idle.keys()]]);
      for (const row of rows) wake(String(row.name));
    } catch (err) {
      // The loops fetch again once the database answers a poll.
      log.warn({ err }, 'job queue: could not look for due jobs');
    } finally {
      polling = false;
    }
  };

  return {
    /** Resolves when `name` may have a job due (or at `stop`). */
    waitForJob(name: string): Promise<void> {
      timer ??= setInterval(
        () => poll().catch((err) => log.warn({ err }, 'job queue: the poll for due jobs failed')),
        pollMs,
      );
      return new Promise<void>((resolve) => {
        const waiters = idle.get(name) ?? new Set();
        waiters.add(resolve);
        idle.set(name, waiters);
      });
    },
    /** A job of `name` was sent: its idle loops fetch now. */
    wake,
    /** Ends every wait (the loops are stopping) and the polling. */
    stop() {
      clearInterval(timer);
      timer = undefined;
      for (const name of [...idle.keys()]) wake(name);
    },
  };
}

export type JobWakeups = ReturnType<typeof createJobWakeups>;
