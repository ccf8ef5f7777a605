import type { AppContext } from '../kernel/context.js';
import { wakeableSleep } from '../wakeable-sleep.js';
import { registerBotEvents } from './events/index.js';
import { acquireGatewayLock, type GatewayLock } from './gateway-lock.js';
import { registerWithDiscord } from './register-at-start.js';

/** After a failed connect the holder gives the lock up and waits this long (doubling) before trying again. */
const CONNECT_RETRY_MS = 15_000;
const MAX_CONNECT_RETRY_MS = 5 * 60_000;
/**
 * How often the gateway holder asks Discord whether the Server Members intent was switched on or off in the
 * portal. Switched off, Discord closes the session itself (4014); switched on again, nothing tells the bot,
 * so without asking it would stay connected without member events and the mirror would drift.
 */
export const INTENTS_CHECK_MS = 60_000;

/**
 * The `bot` role: waits for the gateway lock (so exactly one process holds each shard), then wires the
 * gateway event handlers and connects. Runs in the background: a standby process keeps serving its other
 * roles and takes over when the holder dies. The lock is only held while connected: a holder that cannot
 * connect, or whose lock connection broke, disconnects, releases it and queues up again, so whichever
 * process can connect holds the gateway. Answers a function that stops it.
 */
export function startBot(
  ctx: AppContext,
  opts: { lockRetryMs?: number; connectRetryMs?: number; intentsCheckMs?: number } = {},
): () => Promise<void> {
  const platforms = ctx.platforms;
  if (!platforms) throw new Error('The bot role needs started platforms');
  const shardIds = ctx.config.discord.shards?.ids ?? [0];
  let stopped = false;
  let lock: GatewayLock | undefined;
  let endHold: (() => void) | undefined;
  const { sleep, wake } = wakeableSleep();

  /** One tenure: take the lock, connect, keep it until lost or stopped. Answers whether it connected. */
  const holdOnce = async (): Promise<boolean> => {
    const current = acquireGatewayLock({
      databaseUrl: ctx.config.databaseUrl,
      shardIds,
      retryMs: opts.lockRetryMs,
      onWaiting: () => {
        platforms.setGatewayStandby();
        ctx.log.info({ shardIds }, 'Discord: another process holds the gateway; standing by');
      },
    });
    lock = current;
    const ended = new Promise<void>((resolve) => {
      endHold = resolve;
      current.onLost(() => {
        ctx.log.error('Discord: lost the gateway lock (database connection broke); disconnecting');
        resolve();
      });
    });
    try {
      await current.acquired;
    } catch {
      return false; // stopped while waiting
    }
    if (stopped) return false;
    let unsubscribe: (() => void) | undefined;
    try {
      // Only the gateway holder registers, so several processes never race to overwrite the commands.
      await registerWithDiscord(ctx);
      unsubscribe = registerBotEvents(platforms.bot.client, ctx);
      if (!(await platforms.startGateway())) {
        if (!stopped)
          ctx.log.warn(
            'Discord: the gateway did not connect; releasing the gateway lock for another process',
          );
        return false;
      }
      // Reconnecting with the intents now allowed fills the mirror again (bot/events/ready.ts).
      const intentsCheck = setInterval(() => {
        platforms.bot
          .refreshIntents()
          .catch((err) => ctx.log.warn({ err }, 'Discord: could not check the Server Members intent'));
      }, opts.intentsCheckMs ?? INTENTS_CHECK_MS);
      intentsCheck.unref();
      try {
        await ended;
      } finally {
        clearInterval(intentsCheck);
      }
      return true;
    } finally {
      unsubscribe?.();
      await platforms.stopGateway().catch((err) => ctx.log.warn({ err }, 'Discord: disconnecting failed'));
      await current.release();
    }
  };

  const run = async () => {
    let retryMs = opts.connectRetryMs ?? CONNECT_RETRY_MS;
    while (!stopped) {
      const connected = await holdOnce().catch((err) => {
        ctx.log.error({ err }, 'Discord: holding the gateway failed');
        return false;
      });
      if (stopped) return;
      if (connected) {
        retryMs = opts.connectRetryMs ?? CONNECT_RETRY_MS;
        continue; // lost the lock: queue up again at once
      }
      await sleep(retryMs);
      retryMs = Math.min(retryMs * 2, MAX_CONNECT_RETRY_MS);
    }
  };

  const running = run();
  return async () => {
    stopped = true;
    wake();
    endHold?.();
    await lock?.release();
    await running.catch(() => {});
  };
}
