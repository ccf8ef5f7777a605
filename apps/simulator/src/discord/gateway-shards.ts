import type { DiscordState } from './state.js';
import type { SimGuild } from './types.js';

/**
 * Gateway sharding as Discord does it (docs: Gateway → Sharding, Session Start Limit; close codes 4010/4011):
 * - a guild belongs to shard `(guild_id >> 22) % num_shards`; a session gets READY, GUILD_CREATE and every
 *   guild event only for its shard's guilds; events without a guild (DMs) go to shard 0;
 * - one session may hold at most 2,500 guilds: an IDENTIFY whose shard would hold more is closed with 4011
 *   "Sharding required"; `GET /gateway/bot` recommends one shard per 1,000 guilds;
 * - a shard that is not `[id, count]` with integers `0 <= id < count` is closed with 4010 "Invalid shard";
 * - IDENTIFYs are limited per rate-limit bucket `shard_id % max_concurrency` to one per 5 s: one too early is
 *   answered with op 9 Invalid Session (`d: false`) and starts nothing;
 * - `session_start_limit.total` IDENTIFYs per 24 h (1,000 for most bots; RESUMEs do not count). Past it,
 *   Discord's documentation says every session of the bot is terminated and its token reset: the
 *   simulator closes every session with 4004 "Authentication failed." and refuses IDENTIFYs the same way
 *   until the limit resets.
 */

/** The most guilds one session may hold (Discord: 2,500). */
export const MAX_GUILDS_PER_SHARD = 2500;
/** `GET /gateway/bot` recommends one shard per this many guilds (Discord: about 1,000). */
export const RECOMMENDED_GUILDS_PER_SHARD = 1000;

/** The shard of a guild for `count` shards. */
export const shardOf = (guildId: string, count: number): number =>
  Number((BigInt(guildId) >> 22n) % BigInt(count));

/** `[id, count]` as IDENTIFY sent it, or null when it is not a valid shard (4010). Absent: `[0, 1]`. */
export function parseShard(raw: unknown): [number, number] | null {
  if (raw === undefined || raw === null) return [0, 1];
  if (!Array.isArray(raw) || raw.length !== 2) return null;
  const [id, count] = raw;
  if (!Number.isInteger(id) || !Number.isInteger(count)) return null;
  if (count < 1 || id < 0 || id >= count) return null;
  return [id, count];
}

/** The bot's guilds that a session on `shard` receives. */
export function guildsOfShard(state: DiscordState, shard: [number, number]): SimGuild[] {
  const all = state.botGuilds();
  return shard[1] === 1 ? all : all.filter((g) => shardOf(g.id, shard[1]) === shard[0]);
}

/** Whether a session on `shard` receives an event of this guild (undefined: no guild, shard 0 only). */
export function shardOwns(shard: [number, number], guildId: string | undefined): boolean {
  if (!guildId) return shard[0] === 0;
  return shard[1] === 1 || shardOf(guildId, shard[1]) === shard[0];
}

/** Discord's recommendation for `GET /gateway/bot`. */
export function recommendedShards(state: DiscordState): number {
  return Math.max(1, Math.ceil(state.botGuilds().length / state.config.recommendedGuildsPerShard));
}

/** What an IDENTIFY may do now, as far as the identify limits go. */
export type IdentifyVerdict = 'ok' | 'too-soon' | 'limit-exhausted';

/**
 * The session start limit and the identify buckets, per application. `window()` and the 24 h reset
 * are Discord's (5 s, 24 h), the window shortened with the simulator's time scale.
 */
export class IdentifyLimits {
  /** When each bucket last started a session (epoch ms). */
  private readonly lastIdentify = new Map<number, number>();
  /** IDENTIFYs answered with op 9 because their bucket had started a session less than 5 s before. */
  refusedTooSoon = 0;

  constructor(private readonly state: DiscordState) {}

  /** Checks and, when allowed, counts one IDENTIFY of `shardId`. */
  take(shardId: number): IdentifyVerdict {
    const limit = this.state.sessionStartLimit;
    const now = Date.now();
    if (limit.resetAt <= now) Object.assign(limit, { used: 0, resetAt: now + 86_400_000 });
    if (limit.used >= this.state.config.sessionStartLimitTotal) return 'limit-exhausted';
    const bucket = shardId % this.state.config.maxConcurrency;
    const last = this.lastIdentify.get(bucket);
    if (last !== undefined && now - last < this.state.config.identifyWindowMs / this.state.timeScale) {
      this.refusedTooSoon++;
      return 'too-soon';
    }
    this.lastIdentify.set(bucket, now);
    limit.used += 1;
    return 'ok';
  }

  reset(): void {
    this.lastIdentify.clear();
    this.refusedTooSoon = 0;
  }
}
