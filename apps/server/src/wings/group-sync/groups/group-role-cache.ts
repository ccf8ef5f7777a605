import { and, asc, eq, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { type CachedGroupRole, groupRoleCache, guildGroups } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import type { VrchatGroupRole } from '../../../platforms/ports.js';
import { VrchatError } from '../../../platforms/vrchat/errors.js';

/** A cached copy older than this is read again by the groups.roles task (role changes arrive by the follow). */
export const GROUP_ROLES_REFRESH_AFTER_MS = 6 * 60 * 60 * 1000;
/** How many groups one groups.roles run reads at most (a slow trickle on the VRChat budget). */
export const GROUP_ROLES_PER_RUN = 20;

/** A linked group's roles as the cache holds them. */
export interface GroupRoles {
  roles: VrchatGroupRole[];
  /** When VRChat answered them. */
  readAt: Date;
  /** A role change was seen since, and reading the roles again failed: the copy may be out of date. */
  stale: boolean;
}

const reads = new WeakMap<AppContext, Map<string, Promise<VrchatGroupRole[]>>>();

const asCached = (roles: VrchatGroupRole[]): CachedGroupRole[] =>
  roles.map(({ id, name, order, isManagementRole, requiresPurchase, permissions }) => ({
    id,
    name,
    order,
    isManagementRole,
    requiresPurchase,
    permissions,
  }));

/** The cached copy of a group's roles (no VRChat call), or null when none is kept. */
export async function cachedGroupRoles(db: Queryable, groupId: string): Promise<GroupRoles | null> {
  const [row] = await db.select().from(groupRoleCache).where(eq(groupRoleCache.groupId, groupId));
  if (!row) return null;
  return { roles: row.roles, readAt: row.readAt, stale: row.staleSince !== null };
}

/**
 * Reads the group's roles from VRChat now and keeps them (while a server links the group: an unlink that
 * came meanwhile is not undone). One read per group at a time in this process; never inside a transaction.
 */
export function refreshGroupRoles(ctx: AppContext, groupId: string): Promise<VrchatGroupRole[]> {
  const inFlight = reads.get(ctx) ?? new Map<string, Promise<VrchatGroupRole[]>>();
  reads.set(ctx, inFlight);
  const running = inFlight.get(groupId);
  if (running) return running;
  const read = (async () => {
    const roles = await ctx.vrchat.getGroupRoles(groupId);
    const cached = asCached(roles);
    await ctx.db.execute(sql`
      insert into ${groupRoleCache} (group_id, roles, read_at, stale_since)
      select ${groupId}, ${JSON.stringify(cached)}::jsonb, now(), null
      where exists (select 1 from ${guildGroups} where ${guildGroups.groupId} = ${groupId})
      on conflict (group_id) do update set roles = excluded.roles, read_at = excluded.read_at, stale_since = null`);
    return roles;
  })().finally(() => inFlight.delete(groupId));
  inFlight.set(groupId, read);
  return read;
}

/**
 * How young a copy the role-mapping dialogs take as it is: opened again within a minute (by the same manager, by
 * several at once) they ask VRChat nothing; opened later they read the roles again, as fresh as before.
 */
export const GROUP_ROLES_YOUNG_MS = 60_000;

/**
 * The group's roles for the role-mapping dialogs: the copy when VRChat answered it less than
 * GROUP_ROLES_YOUNG_MS ago and no role change marked it out of date since, else VRChat now (and kept).
 */
export async function recentGroupRoles(ctx: AppContext, groupId: string): Promise<VrchatGroupRole[]> {
  const cached = await cachedGroupRoles(ctx.db, groupId);
  if (cached && !cached.stale && Date.now() - cached.readAt.getTime() < GROUP_ROLES_YOUNG_MS)
    return cached.roles;
  return refreshGroupRoles(ctx, groupId);
}

/**
 * The group's roles for readers that must not spend VRChat's budget on every call (the world list, previews,
 * world data): the cached copy; without one, VRChat is asked once and the answer kept. Null when there is no
 * copy and VRChat cannot be asked (unreachable, rate limited): the caller says so instead of showing no roles.
 */
export async function groupRolesOf(ctx: AppContext, groupId: string): Promise<GroupRoles | null> {
  const cached = await cachedGroupRoles(ctx.db, groupId);
  if (cached) return cached;
  try {
    const roles = await refreshGroupRoles(ctx, groupId);
    return { roles, readAt: new Date(), stale: false };
  } catch (err) {
    if (!(err instanceof VrchatError)) throw err;
    ctx.log.warn({ err, groupId }, 'group roles: not cached and VRChat could not be asked');
    return null;
  }
}

/** A role change was seen but could not be read: the copy is marked out of date and refreshed first. */
export async function markGroupRolesStale(db: Queryable, groupId: string): Promise<void> {
  await db
    .update(groupRoleCache)
    .set({ staleSince: new Date() })
    .where(and(eq(groupRoleCache.groupId, groupId), isNull(groupRoleCache.staleSince)));
}

/** The group is no longer linked by any server: its cached roles go (call after the unlink's delete). */
export async function forgetGroupRoles(db: Queryable, groupId: string): Promise<void> {
  await db
    .delete(groupRoleCache)
    .where(
      and(
        eq(groupRoleCache.groupId, groupId),
        notExists(db.select().from(guildGroups).where(eq(guildGroups.groupId, groupId))),
      ),
    );
}

/**
 * The groups.roles task: reads again the linked groups whose copy is missing, marked out of date, or older
 * than GROUP_ROLES_REFRESH_AFTER_MS (out of date first, then oldest), at most GROUP_ROLES_PER_RUN a run; stops
 * when `signal` aborts or VRChat rate limits. Copies of groups no server links any more go. Answers how many
 * groups were read.
 */
export async function refreshOldGroupRoles(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  await ctx.db
    .delete(groupRoleCache)
    .where(
      notExists(ctx.db.select().from(guildGroups).where(eq(guildGroups.groupId, groupRoleCache.groupId))),
    );
  const due = await ctx.db
    .selectDistinct({
      groupId: guildGroups.groupId,
      staleSince: groupRoleCache.staleSince,
      readAt: groupRoleCache.readAt,
    })
    .from(guildGroups)
    .leftJoin(groupRoleCache, eq(groupRoleCache.groupId, guildGroups.groupId))
    .where(
      or(
        isNull(groupRoleCache.groupId),
        isNotNull(groupRoleCache.staleSince),
        lt(groupRoleCache.readAt, new Date(Date.now() - GROUP_ROLES_REFRESH_AFTER_MS)),
      ),
    )
    .orderBy(
      sql`${groupRoleCache.staleSince} asc nulls last`,
      sql`${groupRoleCache.readAt} asc nulls first`,
      asc(guildGroups.groupId),
    )
    .limit(GROUP_ROLES_PER_RUN);
  let read = 0;
  for (const { groupId } of due) {
    if (signal?.aborted) break;
    try {
      await refreshGroupRoles(ctx, groupId);
      read++;
    } catch (err) {
      if (err instanceof VrchatError && err.status === 429) throw err;
      ctx.log.warn({ err, groupId }, 'groups.roles: could not read a group’s roles; tried again next run');
    }
  }
  return read;
}
