import { and, arrayOverlaps, asc, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type AgeVerification, vrchatLinks as l, guildMembers as m } from '../../../db/schema/index.js';
import { escapeLike } from './member-mirror.store.js';

export interface MemberFilter {
  discordRoleIds?: string[];
  /** VRChat user ids allowed (the group-role filter, resolved from VRChat). */
  vrchatIds?: Set<string>;
  vrcNamePrefix?: string;
  vrcId?: string;
  discordId?: string;
  verified?: boolean;
  ageVerification?: AgeVerification;
}

/**
 * Linked current members of a server (humans with a VRChat link), in Discord id order, after `afterId`:
 * the mirror's primary key (guild, user) walks them in order, so every page is one index range however far
 * the cursor is. `limit + 1` rows are read so the caller knows whether another page follows.
 */
export async function linkedMemberPage(
  db: Db,
  guildId: string,
  filter: MemberFilter,
  page: { afterId?: string; limit: number },
) {
  const conditions: (SQL | undefined)[] = [
    eq(m.guildId, guildId),
    isNull(m.leftAt),
    eq(m.bot, false),
    page.afterId ? gt(m.userId, page.afterId) : undefined,
    filter.discordId ? eq(m.userId, filter.discordId) : undefined,
    filter.discordRoleIds?.length ? arrayOverlaps(m.roleIds, filter.discordRoleIds) : undefined,
    filter.vrchatIds ? sql`${l.vrcUserId} = any(${sql.param([...filter.vrchatIds])}::text[])` : undefined,
    filter.vrcNamePrefix
      ? sql`lower(${l.vrchatName}) like ${`${escapeLike(filter.vrcNamePrefix.toLowerCase())}%`}`
      : undefined,
    filter.vrcId ? eq(l.vrcUserId, filter.vrcId) : undefined,
    filter.verified === undefined ? undefined : eq(l.isVerified, filter.verified),
    filter.ageVerification ? ageCondition(filter.ageVerification) : undefined,
  ];
  return db
    .select({ member: m, link: l })
    .from(m)
    .innerJoin(l, eq(l.discordUserId, m.userId))
    .where(and(...conditions))
    .orderBy(asc(m.userId))
    .limit(page.limit + 1);
}

/**
 * The age filter on the age a link may be shown with (kernel/proven-age.ts): 18+ and age-verified match only
 * ownership-verified links; 'Unverified' also matches every unproven link, whatever its account says.
 */
function ageCondition(age: AgeVerification): SQL | undefined {
  if (age === 'Unverified') return or(eq(l.ageVerification, age), eq(l.isVerified, false));
  return and(eq(l.ageVerification, age), eq(l.isVerified, true));
}

export type LinkedMemberRow = Awaited<ReturnType<typeof linkedMemberPage>>[number];
