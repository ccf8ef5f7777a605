import type { AppContext } from '../context.js';
import { registerBotEvents } from './events/index.js';
import { acquireGatewayLock } from './gateway-lock.js';
import { registerWithDiscord } from './register-at-start.js';

/**
 * The `bot` role: waits for the gateway lock (so exactly one process holds each shard), then wires the
 * gateway event handlers and connects. Runs in the background: a standby process keeps serving its other
 * roles and takes over when the holder dies. Answers a function that stops it.
 */
export function startBot(ctx: AppContext, opts: { lockRetryMs?: number } = {}): () => Promise<void> {
  const platforms = ctx.platforms;
  if (!platforms) throw new Error('The bot role needs started platforms');
  const shardIds = ctx.config.discord.shards?.ids ?? [0];
  let stopped = false;
  let current: { release(): Promise<void> } | undefined;
  let unsubscribe: (() => void) | undefined;

  const hold = async (): Promise<void> => {
    const lock = acquireGatewayLock({
      databaseUrl: ctx.config.databaseUrl,
      shardIds,
      retryMs: opts.lockRetryMs,
      onWaiting: () => {
        platforms.setGatewayStandby();
        ctx.log.info({ shardIds }, 'Discord: another process holds the gateway; standing by');
      },
    });
    current = lock;
    lock.onLost(() => {
      ctx.log.error('Discord: lost the gateway lock (database connection broke); disconnecting');
      unsubscribe?.();
      unsubscribe = undefined;
      void platforms.bot
        .stop()
        .catch(() => {})
        .then(() => lock.release())
        .then(() => (stopped ? undefined : hold()));
    });
    try {
      await lock.acquired;
    } catch {
      return; // stopped while waiting
    }
    if (stopped) return;
    // Only the gateway holder registers, so several processes never race to overwrite the commands.
    await registerWithDiscord(ctx);
    unsubscribe = registerBotEvents(platforms.bot.client, ctx);
    await platforms.startGateway();
  };

  const running = hold();
  return async () => {
    stopped = true;
    unsubscribe?.();
    await current?.release();
    await running.catch(() => {});
  };
}
