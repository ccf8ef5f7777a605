import { compareSnowflakes } from './snowflake.js';
import type { SimGuild } from './types.js';

/**
 * Member ids of a guild in snowflake order, cached until membership changes, so paging a
 * 100k-member guild (`GET /guilds/{id}/members?after=`, op 8 chunks) does not re-sort every call.
 */
const sorted = new WeakMap<SimGuild, string[]>();

export function sortedMemberIds(guild: SimGuild): string[] {
  let ids = sorted.get(guild);
  if (!ids) {
    ids = [...guild.members.keys()].sort(compareSnowflakes);
    sorted.set(guild, ids);
  }
  return ids;
}

/** Every change of who is in a guild must call this (guild-ops, bulk seeding). */
export function membersChanged(guild: SimGuild): void {
  sorted.delete(guild);
}

/** Index of the first id greater than `after` in a sorted id list. */
export function firstAfter(ids: string[], after: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareSnowflakes(ids[mid], after) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
