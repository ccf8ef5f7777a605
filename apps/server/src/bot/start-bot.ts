import type { AppContext } from '../kernel/context.js';
import type { DiscordBot } from '../platforms/discord/bot.js';
import { wakeableSleep } from '../wakeable-sleep.js';
import {
  MEMBERS_RECONCILE_CHANNEL,
  reconcileAskedByOther,
} from '../wings/access/members/member-mirror.reconcile.js';
import { registerBotEvents } from './events/index.js';
import { acquireGatewayLock, type GatewayLock } from './gateway-lock.js';
import { heldShardsReconciler } from './held-shards-reconcile.js';
import { databaseIdentifyThrottler } from './identify-throttler.js';
import { registerWithDiscord } from './register-at-start.js';
import { heldShardsGrow } from './take-over-shards.js';

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
 * Which shards this tenure asks for: every shard of the count (`SHARD_COUNT`, else Discord's recommendation),
 * or the ids configured for this process (`SHARD_IDS`), which it then waits for all together.
 */
async function shardPlan(
  ctx: AppContext,
  bot: DiscordBot,
): Promise<{ count: number; ids: number[]; atMost?: number }> {
  const { shards } = ctx.config.discord;
  const count = shards.count ?? (await bot.gatewayInfo()).shards;
  if (shards.ids) return { count, ids: shards.ids };
  return { count, ids: Array.from({ length: count }, (_, i) => i), atMost: shards.perProcess ?? count };
}

/**
 * The `bot` role: waits for the gateway locks of its shards (so exactly one process holds each shard; without
 * `SHARD_IDS` it takes the free ones, at most `SHARDS_PER_PROCESS`, so several bot processes spread the shards
 * over themselves), then wires the gateway event handlers and connects those shards. Runs in the background: a standby process keeps serving its other
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
  let stopped = false;
  let lock: GatewayLock | undefined;
  let endHold: (() => void) | undefined;
  const { sleep, wake } = wakeableSleep();

  const reconciler = heldShardsReconciler(ctx);

  /**
   * One tenure: take the lock, connect, keep it until lost or stopped. Answers whether it connected (and
   * stayed whole: a shard taken over that did not connect ends the tenure as a failed connect).
   */
  const holdOnce = async (): Promise<boolean> => {
    let addFailed = false;
    let growing: ReturnType<typeof heldShardsGrow> | undefined;
    let plan: Awaited<ReturnType<typeof shardPlan>>;
    try {
      plan = await shardPlan(ctx, platforms.bot);
    } catch (err) {
      ctx.log.warn({ err }, 'Discord: could not read the recommended shard count (GET /gateway/bot)');
      return false;
    }
    const current = acquireGatewayLock({
      databaseUrl: ctx.config.databaseUrl,
      shardIds: plan.ids,
      atMost: plan.atMost,
      retryMs: opts.lockRetryMs,
      onWaiting: () => {
        platforms.setGatewayStandby();
        ctx.log.info(
          { shardIds: plan.ids, shardCount: plan.count },
          'Discord: other processes hold the gateway shards; standing by',
        );
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
    let held: number[];
    try {
      held = await current.acquired;
    } catch {
      return false; // stopped while waiting
    }
    if (stopped) return false;
    let unsubscribe: (() => void) | undefined;
    try {
      // Only the gateway holder registers, so several processes never race to overwrite the commands.
      await registerWithDiscord(ctx);
      // Every IDENTIFY starts a session; past the day's limit Discord ends every session and resets the token.
      const { sessionStartLimit } = await platforms.bot.gatewayInfo();
      if (sessionStartLimit.remaining < held.length) {
        ctx.log.error(
          { sessionStartLimit, shards: held.length },
          'Discord: too few session starts left for today; not connecting until the limit resets',
        );
        return false;
      }
      unsubscribe = registerBotEvents(platforms.bot.client, ctx);
      ctx.log.info({ shardIds: held, shardCount: plan.count }, 'Discord: holding gateway shards');
      const databaseUrl = ctx.config.databaseUrl;
      const started = await platforms.startGateway({
        shards: { ids: held, count: plan.count },
        // Other bot processes identify too: the identify buckets are shared through the database.
        identifyThrottler: databaseUrl ? (max) => databaseIdentifyThrottler(databaseUrl, max) : undefined,
      });
      if (!started) {
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
      // The member reconciliation asked for in another process: this process's shards, over its gateway.
      await current.listen(MEMBERS_RECONCILE_CHANNEL, (payload) => {
        if (reconcileAskedByOther(payload)) reconciler.request();
      });
      // Room for more shards (SHARDS_PER_PROCESS): take those whose holder died.
      growing = plan.atMost
        ? heldShardsGrow({
            ctx,
            lock: current,
            held,
            atMost: plan.atMost,
            retryMs: opts.lockRetryMs,
            onFailed: () => {
              addFailed = true;
              endHold?.();
            },
          })
        : undefined;
      try {
        await ended;
      } finally {
        clearInterval(intentsCheck);
      }
      return !addFailed;
    } finally {
      unsubscribe?.();
      reconciler.endTenure();
      // Stopping the gateway also ends the wait of a shard being taken over.
      const grown = growing?.stop();
      await platforms.stopGateway().catch((err) => ctx.log.warn({ err }, 'Discord: disconnecting failed'));
      await grown;
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
