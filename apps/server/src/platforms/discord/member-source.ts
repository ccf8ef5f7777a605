import { randomBytes } from 'node:crypto';
import {
  type APIApplication,
  type APIGuild,
  type APIGuildMember,
  ApplicationFlags,
  type Client,
  Events,
  type GatewayGuildMembersChunkDispatchData,
  GatewayIntentBits,
  GatewayOpcodes,
  type GatewayRateLimitedDispatchData,
  Routes,
} from 'discord.js';
import type { DiscordMemberRecord, DiscordMemberSource } from '../ports.js';
import { isNotFound } from './errors.js';

/** Discord's page size for GET /guilds/{id}/members, and the most members one op 8 chunk carries. */
const MEMBER_PAGE = 1000;
/** How long to wait for the next op 8 chunk before giving up on the request. */
const CHUNK_TIMEOUT_MS = 30_000;

/**
 * Op 8 requests of member fills a shard sends per minute at most, evenly spaced (one per 600 ms). Discord
 * allows 120 payloads per 60 s per connection (close 4008 past it) and discord.js queues sends past 115 until
 * the window ends; spacing the fills below that leaves room for heartbeats and everything else.
 */
export const FILL_SENDS_PER_MINUTE = 100;
const FILL_SEND_SPACING_MS = 60_000 / FILL_SENDS_PER_MINUTE;

/** When each shard of a client may send its next fill request (epoch ms). */
const nextFillSend = new WeakMap<Client, Map<number, number>>();

/** Waits for this shard's next fill slot (first come, first served). */
async function fillSendSlot(client: Client, shardId: number): Promise<void> {
  const shards = nextFillSend.get(client) ?? new Map<number, number>();
  nextFillSend.set(client, shards);
  const now = Date.now();
  const at = Math.max(now, shards.get(shardId) ?? 0);
  shards.set(shardId, at + FILL_SEND_SPACING_MS);
  if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
}

/** Flags Discord sets on the application when the Server Members intent is switched on in the portal. */
export const MEMBERS_INTENT_FLAGS =
  ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited;

/** Discord answered op 8 with RATE_LIMITED (every member of a guild: once per 30 s). */
export class MembersRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`Request Guild Members is rate limited; retry in ${retryAfterMs} ms`);
    this.name = 'MembersRateLimitedError';
  }
}

/** The gateway cannot answer op 8 now (not connected, no Guild Members intent, or the guild is unknown). */
export class GatewayMembersUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayMembersUnavailableError';
  }
}

/** What chunks, member events and REST answers all carry about a member. */
export type ApiMemberLike = Pick<APIGuildMember, 'user' | 'roles'> & {
  nick?: string | null;
  avatar?: string | null;
  joined_at?: string | null;
};

/** A member object from a chunk, an event or REST, as the mirror stores it. */
export function recordFromApi(m: ApiMemberLike): DiscordMemberRecord {
  const user = m.user;
  return {
    userId: user.id,
    username: user.username,
    globalName: user.global_name ?? null,
    nickname: m.nick ?? null,
    avatar: m.avatar ?? user.avatar ?? null,
    guildAvatar: Boolean(m.avatar),
    bot: Boolean(user.bot),
    roleIds: [...m.roles],
    joinedAt: m.joined_at ? new Date(m.joined_at) : null,
  };
}

export function memberSource(client: Client): DiscordMemberSource {
  const rest = client.rest;
  const hasIntent = () => client.options.intents.has(GatewayIntentBits.GuildMembers);

  return {
    async membersIntentAvailable() {
      const app = (await rest.get(Routes.currentApplication())) as APIApplication;
      return ((app.flags ?? 0) & MEMBERS_INTENT_FLAGS) !== 0;
    },

    gatewayHasMembersIntent: () => client.isReady() && hasIntent(),

    async memberCount(guildId) {
      const cached = client.isReady() ? client.guilds.cache.get(guildId) : undefined;
      if (cached) return cached.memberCount;
      try {
        const guild = (await rest.get(Routes.guild(guildId), {
          query: new URLSearchParams({ with_counts: 'true' }),
        })) as APIGuild;
        return guild.approximate_member_count ?? null;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async streamAllMembers(guildId, onChunk) {
      const readyGuild = () => {
        const guild = client.isReady() ? client.guilds.cache.get(guildId) : undefined;
        if (!guild) throw new GatewayMembersUnavailableError('The gateway is not connected');
        if (!hasIntent()) throw new GatewayMembersUnavailableError('No Guild Members intent');
        return guild;
      };
      await fillSendSlot(client, readyGuild().shardId);
      // The connection may have dropped while this request waited for its turn.
      const guild = readyGuild();
      const nonce = randomBytes(12).toString('hex');
      return new Promise<void>((resolve, reject) => {
        let received = 0;
        let written: Promise<void> = Promise.resolve();
        const finish = (err?: unknown) => {
          clearTimeout(timer);
          client.off(Events.Raw, onRaw);
          client.off(Events.ShardDisconnect, onDisconnect);
          client.off(Events.ShardReconnecting, onReconnecting);
          if (err) reject(err);
          else written.then(resolve, reject);
        };
        const timer = setTimeout(
          () => finish(new GatewayMembersUnavailableError('Members did not arrive in time')),
          CHUNK_TIMEOUT_MS,
        );
        const onDisconnect = () => finish(new GatewayMembersUnavailableError('The gateway disconnected'));
        const onReconnecting = (shardId: number) => {
          if (shardId === guild.shardId) onDisconnect();
        };
        const onRaw = (packet: { t?: string | null; d?: unknown }) => {
          if (packet.t === 'GUILD_MEMBERS_CHUNK') {
            const d = packet.d as GatewayGuildMembersChunkDispatchData;
            if (d.nonce !== nonce) return;
            timer.refresh();
            received++;
            const records = d.members.map(recordFromApi);
            // Chunks are written in order, one at a time, while later ones arrive.
            written = written.then(() => onChunk(records));
            written.catch(finish);
            if (received >= d.chunk_count) finish();
          } else if (packet.t === 'RATE_LIMITED') {
            const d = packet.d as GatewayRateLimitedDispatchData & { meta: { nonce?: string } };
            if (d.opcode !== GatewayOpcodes.RequestGuildMembers || d.meta?.nonce !== nonce) return;
            finish(new MembersRateLimitedError(Math.ceil(d.retry_after * 1000)));
          }
        };
        client.on(Events.Raw, onRaw);
        client.on(Events.ShardDisconnect, onDisconnect);
        // A dropped connection (even one that resumes) fails the request at once: the fill goes on over REST
        // rather than waiting out the chunk timeout.
        client.on(Events.ShardReconnecting, onReconnecting);
        guild.shard.send({
          op: GatewayOpcodes.RequestGuildMembers,
          d: { guild_id: guildId, query: '', limit: 0, nonce },
        });
      });
    },

    async pageAllMembers(guildId, onPage) {
      const page = (after: string) =>
        rest.get(Routes.guildMembers(guildId), {
          query: new URLSearchParams({ limit: String(MEMBER_PAGE), after }),
        }) as Promise<APIGuildMember[]>;
      let current = await page('0');
      for (;;) {
        // `after` is the highest user id seen; do not rely on the page's order.
        const after = current.reduce((max, m) => (BigInt(m.user.id) > BigInt(max) ? m.user.id : max), '0');
        // The next page is fetched while this one is written.
        const next = current.length < MEMBER_PAGE ? undefined : page(after);
        next?.catch(() => {});
        await onPage(current.map(recordFromApi));
        if (!next) return;
        current = await next;
      }
    },

    async fetchMember(guildId, userId) {
      try {
        return recordFromApi((await rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async searchMembers(guildId, query, limit) {
      const found = (await rest.get(Routes.guildMembersSearch(guildId), {
        query: new URLSearchParams({ query, limit: String(limit) }),
      })) as APIGuildMember[];
      return found.map(recordFromApi);
    },
  };
}
