import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { guildSyncState } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import type {
  VrchatGroup,
  VrchatGroupMember,
  VrchatGroupRole,
  VrchatJoinRequest,
} from '../../../platforms/ports.js';

/** What a sync reads from VRChat about the linked group (the bot's standing in it, members, invites, requests). */
export type GroupReads =
  | { kind: 'missing'; reads: number }
  | { kind: 'botNotInGroup'; group: VrchatGroup; roles: VrchatGroupRole[]; reads: number }
  | {
      kind: 'read';
      group: VrchatGroup;
      roles: VrchatGroupRole[];
      botId: string;
      botMembership: VrchatGroupMember;
      listing: { members: VrchatGroupMember[]; complete: boolean };
      invites: { userId: string; displayName: string | null }[];
      requests: VrchatJoinRequest[];
      reads: number;
    };

export const GROUP_PERMISSIONS = {
  invite: 'group-invites-manage',
  remove: 'group-members-remove',
  assignRoles: 'group-roles-assign',
} as const;

/** The bot's rank, whether it is (as good as) the owner, and what it may do in the group. */
export function botStanding(
  group: VrchatGroup,
  roles: readonly VrchatGroupRole[],
  botId: string,
  botMembership: VrchatGroupMember,
) {
  const botRoles = roles.filter((r) => botMembership.roleIds.includes(r.id));
  const botRank = Math.min(Number.MAX_SAFE_INTEGER, ...botRoles.map((r) => r.order));
  const botPermissions = new Set(botRoles.flatMap((r) => r.permissions));
  const owner = group.ownerId === botId || botPermissions.has('*');
  const may = (p: string) => owner || botPermissions.has(p);
  const can = {
    invite: may(GROUP_PERMISSIONS.invite),
    remove: may(GROUP_PERMISSIONS.remove),
    assignRoles: may(GROUP_PERMISSIONS.assignRoles),
  };
  return { botRank, owner, can };
}

async function readFromVrchat(ctx: AppContext, groupId: string): Promise<GroupReads> {
  let reads = 0;
  const group = await ctx.vrchat.getGroup(groupId, { includeRoles: true });
  reads++;
  if (!group) return { kind: 'missing', reads };
  const roles = group.roles ?? (await ctx.vrchat.getGroupRoles(groupId));
  const botId = await ctx.vrchat.currentUserId(groupId);
  const botMembership = await ctx.vrchat.getGroupMember(groupId, botId);
  reads += 2;
  if (!botMembership) return { kind: 'botNotInGroup', group, roles, reads };
  const { can } = botStanding(group, roles, botId, botMembership);
  const listing = await ctx.vrchat.listGroupMembers(groupId);
  reads += Math.max(1, Math.ceil(listing.members.length / 100));
  const [invites, requests] = await Promise.all([
    can.invite ? ctx.vrchat.listGroupInvites(groupId) : Promise.resolve([]),
    can.invite ? ctx.vrchat.listJoinRequests(groupId) : Promise.resolve([]),
  ]);
  reads += 2;
  return { kind: 'read', group, roles, botId, botMembership, listing, invites, requests, reads };
}

/**
 * How long previews reuse a group read. At VRChat's pace (about 1 request/s) a read costs 6–7 s; a manager
 * editing mappings asks for several previews a minute, and each fresh read would also delay the syncs.
 */
export const PREVIEW_REUSE_MS = 15_000;

interface CachedRead {
  at: number;
  /** The group's last recorded write when the read began (guild_sync_state.group_written_at). */
  written: string | null;
  reads: Promise<GroupReads>;
}

const cache = new WeakMap<AppContext, Map<string, CachedRead>>();
const cacheOf = (ctx: AppContext) => {
  const known = cache.get(ctx);
  if (known) return known;
  const map = new Map<string, CachedRead>();
  cache.set(ctx, map);
  return map;
};

/**
 * The group as VRChat shows it. A sync reads fresh (`reuse: false`); previews (`reuse: true`) share a read in
 * flight or one younger than PREVIEW_REUSE_MS, unless a sync wrote to the group since that read began: in
 * this process (forgetGroupReads) or in any other, which `writtenAt` tells (the last write a sync recorded,
 * compared as a value, so no two clocks are compared).
 */
export async function readGroup(
  ctx: AppContext,
  groupId: string,
  opts: { reuse: boolean; writtenAt?: () => Promise<string | null> },
): Promise<GroupReads> {
  const written = opts.writtenAt ? await opts.writtenAt() : null;
  const map = cacheOf(ctx);
  const hit = map.get(groupId);
  if (opts.reuse && hit && Date.now() - hit.at < PREVIEW_REUSE_MS && hit.written === written)
    return hit.reads;
  const entry: CachedRead = { at: Date.now(), written, reads: readFromVrchat(ctx, groupId) };
  map.set(groupId, entry);
  entry.reads.catch(() => {
    if (map.get(groupId) === entry) map.delete(groupId);
  });
  return entry.reads;
}

/** After the bot changed the group: the next preview reads it again. */
export function forgetGroupReads(ctx: AppContext, groupId: string): void {
  cacheOf(ctx).delete(groupId);
}

/** The last write to the server's group a sync recorded (null: none). */
export async function groupWrittenAt(db: Db, guildId: string): Promise<string | null> {
  const [row] = await db
    .select({ at: guildSyncState.groupWrittenAt })
    .from(guildSyncState)
    .where(eq(guildSyncState.guildId, guildId));
  return row?.at ?? null;
}

/** A sync wrote to the group: the next preview reads it again, in this process and every other. */
export async function groupWritten(ctx: AppContext, guildId: string, groupId: string): Promise<void> {
  forgetGroupReads(ctx, groupId);
  await ctx.db
    .update(guildSyncState)
    .set({ groupWrittenAt: sql`clock_timestamp()` })
    .where(eq(guildSyncState.guildId, guildId));
}
