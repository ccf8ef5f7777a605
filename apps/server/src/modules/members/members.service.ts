import { and, count, eq, ilike, inArray, max, or } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { linkEvents, vrchatLinks } from '../../db/schema/index.js';
import { notFound } from '../../http/errors.js';
import type { DiscordMemberInfo } from '../../platforms/ports.js';
import { requireGuildPermission } from '../permissions/access.service.js';

export const MEMBER_PAGE_SIZE = 25;
export const memberSearchFields = ['DiscordId', 'DiscordName', 'VrcId', 'VrcName'] as const;
export type MemberSearchField = (typeof memberSearchFields)[number];
export const MEMBER_NOT_FOUND = 'That user is not a member of this server.';

type LinkRow = typeof vrchatLinks.$inferSelect;

/** Links whose VRChat id or name matches, as a set of Discord ids (the database does the matching). */
async function linkedIdsMatching(ctx: AppContext, field: 'VrcId' | 'VrcName', search: string) {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const column = field === 'VrcId' ? vrchatLinks.vrcUserId : vrchatLinks.vrchatName;
  const found = await ctx.db
    .select({ id: vrchatLinks.discordUserId })
    .from(vrchatLinks)
    .where(ilike(column, pattern));
  return new Set(found.map((l) => l.id));
}

async function filterMembers(
  ctx: AppContext,
  members: DiscordMemberInfo[],
  field: MemberSearchField,
  search: string,
) {
  if (!search) return members;
  const q = search.toLowerCase();
  if (field === 'DiscordId') return members.filter((m) => m.userId.includes(search));
  if (field === 'DiscordName')
    return members.filter((m) => [m.username, m.displayName].some((n) => n.toLowerCase().includes(q)));
  const ids = await linkedIdsMatching(ctx, field, search);
  return members.filter((m) => ids.has(m.userId));
}

/** Link state of a page of members: their link, how often it changed and when it last did. */
async function linkDetails(ctx: AppContext, ids: string[]) {
  if (ids.length === 0) return { links: new Map<string, LinkRow>(), history: new Map() };
  const [links, history] = await Promise.all([
    ctx.db.select().from(vrchatLinks).where(inArray(vrchatLinks.discordUserId, ids)),
    ctx.db
      .select({ id: linkEvents.discordUserId, n: count(), last: max(linkEvents.createdAt) })
      .from(linkEvents)
      .where(
        and(
          inArray(linkEvents.discordUserId, ids),
          or(
            eq(linkEvents.kind, 'linked'),
            eq(linkEvents.kind, 'unlinked'),
            eq(linkEvents.kind, 'moved_away'),
          ),
        ),
      )
      .groupBy(linkEvents.discordUserId),
  ]);
  return {
    links: new Map(links.map((l) => [l.discordUserId, l])),
    history: new Map(history.map((h) => [h.id, { linkCount: Number(h.n), last: h.last }])),
  };
}

/** The Members tab search: 25 a page, ordered by username. */
export async function searchMembers(
  ctx: AppContext,
  actorId: string,
  guildId: string,
  query: { search?: string; searchBy: MemberSearchField; page: number },
) {
  await requireGuildPermission(ctx, actorId, guildId, 'ViewGuild');
  const all = await ctx.discord.listMembers(guildId);
  const matching = (await filterMembers(ctx, all, query.searchBy, query.search?.trim() ?? '')).sort(
    (a, b) => a.username.localeCompare(b.username) || a.userId.localeCompare(b.userId),
  );
  const page = matching.slice((query.page - 1) * MEMBER_PAGE_SIZE, query.page * MEMBER_PAGE_SIZE);
  const { links, history } = await linkDetails(
    ctx,
    page.map((m) => m.userId),
  );
  return {
    results: page.map((m) => {
      const link = links.get(m.userId);
      const changes = history.get(m.userId);
      const lastChange = changes?.last ? new Date(changes.last) : (link?.linkedAt ?? null);
      return {
        id: m.userId,
        username: m.username,
        avatar: m.avatarUrl,
        vrcName: link?.vrchatName ?? null,
        vrcId: link?.vrcUserId ?? null,
        linkCount: changes?.linkCount ?? (link ? 1 : 0),
        linkLastChanged: lastChange ? lastChange.toISOString() : null,
        isVerified: link?.isVerified ?? false,
        ageVerified: link?.ageVerification ?? 'Unverified',
      };
    }),
    totalCount: matching.length,
    totalPages: Math.max(1, Math.ceil(matching.length / MEMBER_PAGE_SIZE)),
  };
}

/** 'Member Details': the member's Discord roles, highest first. */
export async function memberDetails(ctx: AppContext, actorId: string, guildId: string, memberId: string) {
  const { guild } = await requireGuildPermission(ctx, actorId, guildId, 'ViewGuild');
  const member = await ctx.discord.getMember(guildId, memberId);
  if (!member) throw notFound(MEMBER_NOT_FOUND);
  return {
    id: member.userId,
    discordRoles: guild.roles
      .filter((r) => member.roles.includes(r.id))
      .map(({ id, name, color, position }) => ({ id, name, color, position })),
  };
}
