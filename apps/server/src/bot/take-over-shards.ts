import type { AppContext } from '../kernel/context.js';
import { wakeableSleep } from '../wakeable-sleep.js';
import type { GatewayLock } from './gateway-lock.js';

/** How often a holder with room looks for a shard whose holder died (its lock freed with its connection). */
const TAKE_OVER_RETRY_MS = 2_000;

/**
 * While this process holds fewer shards than it may (`SHARDS_PER_PROCESS`), it looks for free shard locks
 * every couple of seconds and connects the shards it takes beside its own, whose sessions go on: so the
 * shard of a holder that died is back within seconds (its lock frees when its connection closes, even on
 * `kill -9`), and a process started later finds every shard held and stands by instead of taking one back.
 * `held` grows in place. A shard taken that does not connect calls `onFailed` (the tenure ends and starts
 * over, so no lock is kept for a shard nobody runs).
 */
export function heldShardsGrow(opts: {
  ctx: AppContext;
  lock: GatewayLock;
  held: number[];
  atMost: number;
  retryMs?: number;
  onFailed: () => void;
}): { stop(): Promise<void> } {
  const { ctx, lock, held, atMost } = opts;
  const platforms = ctx.platforms;
  let stopped = false;
  const { sleep, wake } = wakeableSleep();

  /** Answers how long to wait before looking again. */
  const takeOnce = async (): Promise<number> => {
    const retryMs = opts.retryMs ?? TAKE_OVER_RETRY_MS;
    const taken = await lock.takeMore(atMost - held.length);
    if (!taken.length || stopped || !platforms) return retryMs;
    ctx.log.info({ shardIds: taken, held }, 'Discord: taking over gateway shards that lost their holder');
    // Every IDENTIFY starts a session; past the day's limit Discord ends every session and resets the token.
    // Too few left: the shards go back (another process may have starts left) and this one waits.
    const { sessionStartLimit } = await platforms.bot.gatewayInfo().catch(async (err) => {
      await lock.giveBack(taken);
      throw err;
    });
    if (sessionStartLimit.remaining < taken.length) {
      await lock.giveBack(taken);
      ctx.log.error(
        { sessionStartLimit, shardIds: taken },
        'Discord: too few session starts left to take shards over',
      );
      return Math.max(retryMs, Math.min(sessionStartLimit.resetAfterMs, 5 * 60_000));
    }
    try {
      await platforms.bot.addShards(taken);
      held.push(...taken);
    } catch (err) {
      if (!stopped) {
        ctx.log.error(
          { err, shardIds: taken },
          'Discord: the shards taken over did not connect; starting over',
        );
        stopped = true;
        opts.onFailed();
      }
    }
    return retryMs;
  };

  const running = (async () => {
    let waitMs = opts.retryMs ?? TAKE_OVER_RETRY_MS;
    while (!stopped && held.length < atMost) {
      await sleep(waitMs);
      if (stopped) return;
      waitMs = await takeOnce().catch((err) => {
        ctx.log.warn({ err }, 'Discord: could not look for free gateway shards');
        return opts.retryMs ?? TAKE_OVER_RETRY_MS;
      });
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake();
      await running;
    },
  };
}
