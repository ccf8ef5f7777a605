import { CDN } from 'discord.js';
import type { CreateContextOptions } from '../../../kernel/context.js';
import { guardDiscord } from '../../../platforms/discord/guard.js';
import { gatewayGuilds } from '../../../platforms/discord/guild-cache.js';
import type { DiscordMemberInfo, DiscordPort } from '../../../platforms/ports.js';
import { snapshotBackedDiscord } from '../guilds/guild-snapshot.port.js';
import { ensureFilled, fillGuild, type MirrorDeps } from './member-mirror.fill.js';
import {
  currentMembers,
  type MemberRow,
  markLeft,
  prefixSearch,
  readMember,
  upsertMembers,
} from './member-mirror.store.js';

/**
 * In 'linked' mode no member events arrive (they need the Guild Members intent), so a stored member is
 * trusted this long before one REST call refreshes it.
 */
export const LINKED_MEMBER_TTL_MS = 60_000;

const image = { extension: 'png', size: 256 } as const;

/** A mirror row in the shape the port answers (the same as the adapter's REST answers). */
export function memberInfoFromRow(cdn: CDN, guildId: string, m: MemberRow): DiscordMemberInfo {
  return {
    userId: m.userId,
    username: m.username,
    displayName: m.nickname ?? m.globalName ?? m.username,
    avatarUrl: m.avatar
      ? m.guildAvatar
        ? cdn.guildMemberAvatar(guildId, m.userId, m.avatar, image)
        : cdn.avatar(m.userId, m.avatar, image)
      : null,
    roles: m.roleIds,
  };
}

/**
 * The Discord port with member reads (getMember, searchMembers, listMembers) answered from the member
 * mirror, so every reader (permissions, profile, guests, world data) sees the same, complete list
 * without discord.js's cache. Anything else goes to the adapter. Where the mirror cannot answer (never
 * filled and Discord unreachable, or a member it does not keep in 'linked' mode) one REST call does,
 * and its answer is stored. Failures are the adapter's (DiscordError: 502/503, never 500).
 */
export function mirrorBackedDiscord(port: DiscordPort, deps: MirrorDeps & { cdnUrl: string }): DiscordPort {
  const cdn = new CDN(deps.cdnUrl);
  const { db } = deps;
  const toInfo = (guildId: string, m: MemberRow) => memberInfoFromRow(cdn, guildId, m);

  /** One member over REST, stored (or marked as gone) in the mirror. */
  async function fetchAndStore(guildId: string, userId: string): Promise<DiscordMemberInfo | null> {
    if (!deps.source) return port.getMember(guildId, userId);
    const seenAt = new Date();
    const record = await deps.source.fetchMember(guildId, userId);
    if (record) await upsertMembers(db, guildId, [record], seenAt);
    else await markLeft(db, guildId, userId, seenAt);
    return record ? toInfo(guildId, { ...record, guildId, leftAt: null, seenAt }) : null;
  }

  /** Starts the first fill of a guild in the background (reads meanwhile go to REST). */
  const fillLater = (guildId: string) => {
    if (deps.source)
      void fillGuild(deps, guildId).catch((err) => deps.log.warn({ err, guildId }, 'Members: fill failed'));
  };

  return guardDiscord({
    ...port,

    async getMember(guildId, userId) {
      const { sync, member } = await readMember(db, guildId, userId);
      if (!sync?.filledAt) {
        fillLater(guildId);
        return fetchAndStore(guildId, userId);
      }
      if (sync.mode === 'full') return member && !member.leftAt ? toInfo(guildId, member) : null;
      if (member && Date.now() - member.seenAt.getTime() < LINKED_MEMBER_TTL_MS)
        return member.leftAt ? null : toInfo(guildId, member);
      return fetchAndStore(guildId, userId);
    },

    async searchMembers(guildId, query, limit) {
      const q = query.trim().slice(0, 100);
      if (!q) return [];
      const max = Math.min(Math.max(1, Math.floor(limit)), 1000);
      const sync = await ensureFilled(deps, guildId).catch(() => undefined);
      if (sync?.mode === 'full' && sync.filledAt)
        return (await prefixSearch(db, guildId, q, max)).map((m) => toInfo(guildId, m));
      // 'linked' mode keeps linked members only; Discord's own search finds anyone (and is stored).
      if (!deps.source) return port.searchMembers(guildId, q, max);
      const seenAt = new Date();
      const found = await deps.source.searchMembers(guildId, q, max);
      await upsertMembers(db, guildId, found, seenAt);
      return found.map((r) => toInfo(guildId, { ...r, guildId, leftAt: null, seenAt }));
    },

    async listMembers(guildId) {
      const sync = await ensureFilled(deps, guildId).catch((err) => {
        deps.log.warn({ err, guildId }, 'Members: fill failed; listing over REST');
        return undefined;
      });
      if (!sync?.filledAt) return port.listMembers(guildId);
      return (await currentMembers(db, guildId)).map((m) => toInfo(guildId, m));
    },
  });
}

/**
 * The context's Discord port for a process with started platforms (the composition root hands it to
 * createContext): member reads come from the member mirror in the database (Discord sends no member list at
 * connect), and server reads from this process's gateway cache or the server snapshot (never Discord's REST).
 * Undefined without platforms.
 */
export function memberMirrorDiscord(opts: CreateContextOptions): DiscordPort | undefined {
  if (!opts.platforms) return undefined;
  const mirrored = mirrorBackedDiscord(opts.platforms.discord, {
    db: opts.database.db,
    log: opts.log,
    source: opts.platforms.bot.members,
    cdnUrl: opts.config.discord.cdnUrl,
  });
  return snapshotBackedDiscord(mirrored, {
    db: opts.database.db,
    gateway: gatewayGuilds(opts.platforms.bot.client),
  });
}
