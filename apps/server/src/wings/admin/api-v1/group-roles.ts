import type { AppContext } from '../../../kernel/context.js';
import { invalid } from '../../../kernel/errors.js';
import { linkOf } from '../../group-sync/index.js';

/** How long one listing of a group role's members is reused (paging through a list re-reads none). */
export const GROUP_ROLE_CACHE_MS = 60_000;
export const NO_GROUP_FOR_ROLES = 'groupRoleId needs a VRChat group linked to this server.';

type Cache = Map<string, { at: number; userIds: string[] }>;
/** One cache per process context (tests run several apps in one process, each with its own simulator). */
const caches = new WeakMap<AppContext, Cache>();

/**
 * The VRChat user ids holding any of the group roles in the server's linked group. Group roles per member
 * are not stored here, so they are read from VRChat (one listing per role, paged by the adapter, under the
 * request's VRChat deadline and outside any transaction) and kept a minute per process.
 */
export async function groupRoleHolders(
  ctx: AppContext,
  guildId: string,
  roleIds: string[],
): Promise<Set<string>> {
  const link = await linkOf(ctx.db, guildId);
  if (!link) throw invalid(NO_GROUP_FOR_ROLES);
  const cache: Cache = caches.get(ctx) ?? new Map();
  caches.set(ctx, cache);
  const holders = new Set<string>();
  for (const roleId of roleIds) {
    const key = `${link.groupId}:${roleId}`;
    let hit = cache.get(key);
    if (!hit || Date.now() - hit.at > GROUP_ROLE_CACHE_MS) {
      const { members } = await ctx.vrchat.listGroupMembers(link.groupId, { roleId });
      hit = { at: Date.now(), userIds: members.map((m) => m.userId) };
      cache.set(key, hit);
    }
    for (const id of hit.userIds) holders.add(id);
  }
  // Expired entries of other groups are dropped now and then, so the map stays small.
  if (cache.size > 1000)
    for (const [k, v] of cache) if (Date.now() - v.at > GROUP_ROLE_CACHE_MS) cache.delete(k);
  return holders;
}
