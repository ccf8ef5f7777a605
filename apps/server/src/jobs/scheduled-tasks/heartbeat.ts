import { sql } from 'drizzle-orm';
import { retryWhenDatabaseLost } from '../../db/retry-when-lost.js';
import { processInstances } from '../../db/schema/index.js';
import type { AppContext } from '../../kernel/context.js';
import { pruneGoneProcesses } from './task-store.js';

export const HEARTBEAT_INTERVAL_MS = 5_000;

/** What /admin shows about this process's platform connections. */
export function processStatus(ctx: AppContext) {
  return {
    discord: { gateway: ctx.platforms?.gatewayState() ?? 'off' },
    vrchat: ctx.platforms?.vrchat.state() ?? null,
  };
}

/**
 * Writes this process's row in `process_instances`: roles, platform status, and the heartbeat time
 * (the database's clock, so every process judges staleness by the same clock). `startedAt` is given on
 * the first beat of a process only.
 */
export async function writeHeartbeat(ctx: AppContext, startedAt?: Date): Promise<void> {
  const { api, container, roles } = ctx.config.process;
  const status = processStatus(ctx);
  await ctx.db
    .insert(processInstances)
    .values({ api, container, roles: [...roles], status, ...(startedAt ? { startedAt } : {}) })
    .onConflictDoUpdate({
      target: processInstances.container,
      set: {
        api,
        roles: [...roles],
        status,
        heartbeatAt: sql`now()`,
        ...(startedAt ? { startedAt } : {}),
      },
    });
}

/**
 * Beats now and every ~5 s (jittered so many processes do not write in step), and forgets processes
 * silent for a day. Answers a stop function that removes this process's row, so /admin drops it at once.
 */
export async function startHeartbeat(
  ctx: AppContext,
  opts: { intervalMs?: number } = {},
): Promise<() => Promise<void>> {
  const interval = opts.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  // Again on a lost or refused connection: the roles start after the API answers, so a database restart or a
  // terminated connection at that moment must not end the process (the fault suite's two processes).
  await retryWhenDatabaseLost(async () => {
    await writeHeartbeat(ctx, new Date());
    await pruneGoneProcesses(ctx.db);
  });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let beating: Promise<void> = Promise.resolve();
  const next = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        beating = writeHeartbeat(ctx)
          .then(() => pruneGoneProcesses(ctx.db))
          .catch((err) => ctx.log.warn({ err }, 'heartbeat not written; retrying'))
          .finally(next);
      },
      interval * (0.9 + Math.random() * 0.2),
    );
    timer.unref();
  };
  next();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await beating;
    await ctx.db
      .delete(processInstances)
      .where(sql`${processInstances.container} = ${ctx.config.process.container}`)
      .catch((err) => ctx.log.warn({ err }, 'process row not removed at shutdown'));
  };
}
