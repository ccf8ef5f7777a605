import type { Db } from '../../../db/client.js';
import { retryWhenDatabaseLost } from '../../../db/retry-when-lost.js';
import type { AppContext } from '../../../kernel/context.js';
import { type ApiMemberLike, recordFromApi } from '../../../platforms/discord/member-source.js';
import { type MirrorDeps, refreshLinkedUser } from './member-mirror.fill.js';
import {
  adjustMemberCount,
  dropGuild,
  markLeft,
  readMember,
  removeRoleEverywhere,
  upsertMembers,
} from './member-mirror.store.js';

/** The mirror's dependencies from the app context. */
export const mirrorDeps = (ctx: AppContext): MirrorDeps => ({
  db: ctx.db,
  log: ctx.log,
  source: ctx.platforms?.bot.members,
});

/**
 * Gateway events of one guild are written one after another, in the order they arrived. Discord sends an
 * event once: a write that meets a lost or refused database connection is tried again (the later events of
 * that guild wait for it) rather than dropped until the next fill.
 */
const queues = new WeakMap<Db, Map<string, Promise<unknown>>>();

function inOrder<T>(db: Db, guildId: string, write: () => Promise<T>): Promise<T> {
  const byGuild = queues.get(db) ?? new Map<string, Promise<unknown>>();
  queues.set(db, byGuild);
  const previous = byGuild.get(guildId) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => retryWhenDatabaseLost(write));
  byGuild.set(guildId, next);
  // Handled on both paths: `next.finally()` would derive a promise that rejects with the write's error and
  // that nobody catches, and an unhandled rejection ends the process (a database error during a join).
  const settled = () => {
    if (byGuild.get(guildId) === next) byGuild.delete(guildId);
  };
  next.then(settled, settled);
  return next;
}

/**
 * GUILD_MEMBER_ADD / UPDATE: answers the member's role ids before the change (null: not known before).
 * The guild's member count follows (so the Members tab lists everyone without counting rows).
 * Call it as the event arrives, before any await: its place in the guild's queue is taken at the call.
 * `readFirst` runs in that place, just before the mirror is read (a read that must see the same moment):
 * an await ahead of the call would let a later event of the same member overtake this one, and the older
 * roles would be written last (seen on PostgreSQL's pool, where queries finish out of order).
 */
export function memberChanged(
  ctx: AppContext,
  guildId: string,
  member: ApiMemberLike,
  readFirst?: () => Promise<void>,
): Promise<string[] | null> {
  const seenAt = new Date();
  return inOrder(ctx.db, guildId, async () => {
    await readFirst?.();
    const before = (await readMember(ctx.db, guildId, member.user.id)).member;
    const wasCurrent = before !== undefined && before.leftAt === null;
    await upsertMembers(ctx.db, guildId, [recordFromApi(member)], seenAt);
    if (!wasCurrent) await adjustMemberCount(ctx.db, guildId, 1);
    return wasCurrent ? before.roleIds : null;
  });
}

/** GUILD_MEMBER_REMOVE. */
export function memberLeft(ctx: AppContext, guildId: string, userId: string): Promise<void> {
  const at = new Date();
  return inOrder(ctx.db, guildId, async () => {
    if (await markLeft(ctx.db, guildId, userId, at)) await adjustMemberCount(ctx.db, guildId, -1);
  });
}

/** GUILD_ROLE_DELETE. */
export function roleDeleted(ctx: AppContext, guildId: string, roleId: string): Promise<void> {
  return inOrder(ctx.db, guildId, () => removeRoleEverywhere(ctx.db, guildId, roleId));
}

/** GUILD_DELETE (not an outage): the bot left or the server is gone. */
export function guildGone(ctx: AppContext, guildId: string): Promise<void> {
  return inOrder(ctx.db, guildId, () => dropGuild(ctx.db, guildId));
}

/**
 * Someone linked a VRChat account: where the mirror keeps linked members only (no Server Members
 * intent), their memberships are fetched now, in the background, so the Members tab lists them at once.
 */
export function memberLinked(ctx: AppContext, userId: string): void {
  if (!ctx.platforms) return;
  void (async () => {
    const guildIds = await ctx.discord.botGuildIds();
    await refreshLinkedUser(mirrorDeps(ctx), guildIds, userId);
  })().catch((err) => ctx.log.warn({ err, userId }, 'Members: could not fetch a newly linked member'));
}
