import { setImmediate as nextTurn } from 'node:timers/promises';
import { Intent } from './intents.js';
import { sortedMemberIds } from './member-index.js';
import { memberObject } from './serialize.js';
import { isSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimGuild, SimMember } from './types.js';

/**
 * Request Guild Members (op 8) as Discord documents it: one guild, `query` + `limit` or `user_ids`,
 * answered by GUILD_MEMBERS_CHUNK dispatches of at most 1,000 members.
 */

const CHUNK_SIZE = 1000;
/** A non-empty query returns at most this many members, whatever `limit` says. */
const QUERY_CAP = 100;
const USER_IDS_CAP = 100;
/** Discord ignores longer nonces (and then sends none back). */
const NONCE_MAX_BYTES = 32;

export interface MembersRequest {
  guildId: string;
  query: string | null;
  limit: number;
  userIds: string[] | null;
  presences: boolean;
  nonce: string | undefined;
}

/** What a session needs from the gateway to be answered. */
export interface MemberRequester {
  intents: number;
  /** Numbers and sends one dispatch. */
  dispatch(t: string, d: unknown): void;
  /** False once the session is gone (reset, pruned): streaming stops. */
  alive(): boolean;
}

/** Parses op 8's `d`; null means an invalid payload (Discord closes with 4001). */
export function parseMembersRequest(d: Record<string, unknown>): MembersRequest | null {
  // Since API v8 a list of guild ids is refused; exactly one snowflake.
  const guildId = typeof d.guild_id === 'number' ? String(d.guild_id) : d.guild_id;
  if (!isSnowflake(guildId)) return null;
  if (d.query !== undefined && d.query !== null && typeof d.query !== 'string') return null;
  const query = typeof d.query === 'string' ? d.query : null;
  let userIds: string[] | null = null;
  if (d.user_ids !== undefined && d.user_ids !== null) {
    const list = ([] as unknown[]).concat(d.user_ids).map((id) => (typeof id === 'number' ? String(id) : id));
    if (list.length > USER_IDS_CAP || !list.every(isSnowflake)) return null;
    userIds = list as string[];
  }
  // "Required: one of query or user_ids"; `limit` is required with a query.
  if (query === null && userIds === null) return null;
  const limit = d.limit ?? (query === null ? 0 : undefined);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) return null;
  if (d.presences !== undefined && d.presences !== null && typeof d.presences !== 'boolean') return null;
  const nonce =
    typeof d.nonce === 'string' && Buffer.byteLength(d.nonce) <= NONCE_MAX_BYTES ? d.nonce : undefined;
  return { guildId, query, limit, userIds, presences: d.presences === true, nonce };
}

/** Case-insensitive prefix of the username or the guild nickname, as Discord's member search. */
function matches(state: DiscordState, member: SimMember, prefix: string): boolean {
  if (member.nick?.toLowerCase().startsWith(prefix)) return true;
  return state.users.get(member.userId)?.username.toLowerCase().startsWith(prefix) ?? false;
}

function queryMembers(state: DiscordState, guild: SimGuild, query: string, limit: number): SimMember[] {
  const cap = limit === 0 ? QUERY_CAP : Math.min(limit, QUERY_CAP);
  const prefix = query.toLowerCase();
  const found: SimMember[] = [];
  for (const id of sortedMemberIds(guild)) {
    const member = guild.members.get(id)!;
    if (matches(state, member, prefix)) found.push(member);
    if (found.length >= cap) break;
  }
  return found;
}

/** Op 8 for one bot: answers requests and remembers when each guild's full list was last asked for. */
export class MemberRequests {
  private readonly lastFullRequest = new Map<string, number>();

  constructor(private readonly state: DiscordState) {}

  /** Forgets the 30-second windows (simulator reset). */
  reset(): void {
    this.lastFullRequest.clear();
  }

  /** Answers a parsed request; chunks stream with a yield between them so big guilds do not stall. */
  async answer(session: MemberRequester, req: MembersRequest): Promise<void> {
    const guild = this.state.guilds.get(req.guildId);
    // Guilds the bot is not in get no answer, as on Discord.
    if (!guild || !this.state.isBotIn(guild)) return;
    const withPresences = req.presences && (session.intents & Intent.GuildPresences) !== 0;
    const nonce = req.nonce !== undefined ? { nonce: req.nonce } : {};

    if (req.userIds) {
      const unique = [...new Set(req.userIds)];
      const members = unique.map((id) => guild.members.get(id)).filter((m) => m !== undefined);
      const notFound = unique.filter((id) => !guild.members.has(id));
      session.dispatch('GUILD_MEMBERS_CHUNK', {
        guild_id: guild.id,
        members: members.map((m) => memberObject(this.state, m)),
        chunk_index: 0,
        chunk_count: 1,
        ...(notFound.length ? { not_found: notFound } : {}),
        ...(withPresences ? { presences: [] } : {}),
        ...nonce,
      });
      return;
    }

    const query = req.query ?? '';
    if (query !== '') {
      const members = queryMembers(this.state, guild, query, req.limit);
      session.dispatch('GUILD_MEMBERS_CHUNK', {
        guild_id: guild.id,
        members: members.map((m) => memberObject(this.state, m)),
        chunk_index: 0,
        chunk_count: 1,
        ...(withPresences ? { presences: [] } : {}),
        ...nonce,
      });
      return;
    }

    // The whole list needs the Guild Members intent; without it Discord sends nothing (clients time out).
    if ((session.intents & Intent.GuildMembers) === 0) return;
    const now = Date.now();
    const last = this.lastFullRequest.get(guild.id);
    const interval = this.state.config.requestMembersIntervalMs / this.state.timeScale;
    if (last !== undefined && now - last < interval) {
      session.dispatch('RATE_LIMITED', {
        opcode: 8,
        retry_after: Number(((last + interval - now) / 1000).toFixed(3)),
        meta: { guild_id: guild.id, ...nonce },
      });
      return;
    }
    this.lastFullRequest.set(guild.id, now);

    const ids = sortedMemberIds(guild);
    const wanted = req.limit === 0 ? ids : ids.slice(0, req.limit);
    const count = Math.max(1, Math.ceil(wanted.length / CHUNK_SIZE));
    for (let i = 0; i < count; i++) {
      if (!session.alive()) return;
      const members = wanted
        .slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE)
        .map((id) => guild.members.get(id))
        .filter((m) => m !== undefined)
        .map((m) => memberObject(this.state, m));
      session.dispatch('GUILD_MEMBERS_CHUNK', {
        guild_id: guild.id,
        members,
        chunk_index: i,
        chunk_count: count,
        ...(withPresences ? { presences: [] } : {}),
        ...nonce,
      });
      if (i + 1 < count) await nextTurn();
    }
  }
}
