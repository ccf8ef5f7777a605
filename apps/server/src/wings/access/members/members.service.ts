import { CDN } from 'discord.js';
import { and, count, inArray, max } from 'drizzle-orm';
import { isDatabaseFailure } from '../../../db/connection-lost.js';
import { LINK_CHANGE_KINDS, linkChangeSummaries, linkEvents } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { provenAge } from '../../../kernel/proven-age.js';
import { DiscordError } from '../../../platforms/discord/errors.js';
import { requireGuildPermission } from '../permissions/access.service.js';
import { mirrorDeps } from './member-mirror.events.js';
import { ensureFilled } from './member-mirror.fill.js';
import { memberInfoFromRow } from './member-mirror.port.js';
import { getSync } from './member-mirror.store.js';
import { type MemberFilter, type MemberSearchField, searchMirror } from './members.search.js';

export const MEMBER_PAGE_SIZE = 25;
export {
  type MemberFilter,
  type MemberSearchField,
  memberFilters,
  memberSearchFields,
} from './members.search.js';
export const MEMBER_NOT_FOUND = 'That user is not a member of this server.';

/**
 * How often each of these members' links was made or removed, and when it last was: the link events still
 * kept, plus what retention summarised of the deleted ones (`link_change_summaries`).
 */
async function linkHistory(ctx: AppContext, ids: string[]) {
  const history = new Map<string, { linkCount: number; last: Date | null }>();
  if (ids.length === 0) return history;
  const [recent, summarised] = await Promise.all([
    ctx.db
      .select({ id: linkEvents.discordUserId, n: count(), last: max(linkEvents.createdAt) })
      .from(linkEvents)
      .where(and(inArray(linkEvents.discordUserId, ids), inArray(linkEvents.kind, [...LINK_CHANGE_KINDS])))
      .groupBy(linkEvents.discordUserId),
    ctx.db.select().from(linkChangeSummaries).where(inArray(linkChangeSummaries.discordUserId, ids)),
  ]);
  const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));
  for (const s of summarised)
    history.set(s.discordUserId, {
      linkCount: s.changes,
      last: s.lastChangedAt ? new Date(s.lastChangedAt) : null,
    });
  for (const r of recent) {
    const before = history.get(r.id);
    const last = r.last ? new Date(r.last as unknown as string) : null;
    history.set(r.id, {
      linkCount: (before?.linkCount ?? 0) + Number(r.n),
      last: later(before?.last ?? null, last),
    });
  }
  return history;
}

/** The guild's mirror, filled first if it never was (503 when Discord cannot be reached for that). */
async function mirrorOf(ctx: AppContext, guildId: string) {
  try {
    return await ensureFilled(mirrorDeps(ctx), guildId);
  } catch (err) {
    // The database itself failed: its own answer (503 while it refuses connections), not Discord's.
    if (isDatabaseFailure(err)) throw err;
    ctx.log.warn({ err, guildId }, 'Members: mirror fill failed');
    const sync = await getSync(ctx.db, guildId);
    if (sync) return sync;
    throw new DiscordError(503, 'The member list could not be read from Discord.', { cause: err });
  }
}

/** The Members tab search: 25 a page, ordered by username. */
export async function searchMembers(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  query: { search?: string; searchBy: MemberSearchField; filter?: MemberFilter; page: number },
) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  const sync = await mirrorOf(ctx, guildId);
  const linkedOnly = sync?.mode === 'linked';
  const { total, rows } = await searchMirror(ctx.db, guildId, {
    field: query.searchBy,
    search: query.search?.trim() ?? '',
    page: query.page,
    pageSize: MEMBER_PAGE_SIZE,
    linkedOnly,
    filter: query.filter,
    // Kept exact by the fills and the join/leave events, so listing everyone needs no count of 100,000 rows.
    knownTotal:
      sync?.mode === 'full' && sync.filledAt && (query.filter ?? 'all') === 'all'
        ? sync.memberCount
        : undefined,
  });
  const history = await linkHistory(
    ctx,
    rows.map((r) => r.member.userId),
  );
  const cdn = new CDN(ctx.config.discord.cdnUrl);
  return {
    results: rows.map(({ member, link }) => {
      const info = memberInfoFromRow(cdn, guildId, member);
      const changes = history.get(member.userId);
      const lastChange = changes?.last ?? link?.linkedAt ?? null;
      return {
        id: member.userId,
        username: member.username,
        avatar: info.avatarUrl,
        vrcName: link?.vrchatName ?? null,
        vrcId: link?.vrcUserId ?? null,
        linkCount: changes?.linkCount ?? (link ? 1 : 0),
        linkLastChanged: lastChange ? lastChange.toISOString() : null,
        isVerified: link?.isVerified ?? false,
        ageVerified: link ? provenAge(link) : 'Unverified',
      };
    }),
    totalCount: total,
    totalPages: Math.max(1, Math.ceil(total / MEMBER_PAGE_SIZE)),
    /** Without the Server Members intent the mirror keeps linked members only. */
    linkedOnly,
  };
}

/** 'Member Details': the member's Discord roles, highest first. */
export async function memberDetails(ctx: AppContext, actor: Actor, guildId: string, memberId: string) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  const member = await ctx.discord.getMember(guildId, memberId);
  if (!member) throw missing(MEMBER_NOT_FOUND);
  return {
    id: member.userId,
    discordRoles: guild.roles
      .filter((r) => member.roles.includes(r.id))
      .map(({ id, name, color, position }) => ({ id, name, color, position })),
  };
}
