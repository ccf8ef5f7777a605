import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guestRoles, guests } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import {
  finishRemoval,
  hostGuests,
  lockHost,
  markRemoving,
  notRemoving,
  roleNamer,
} from './guest-removal.js';
import { hostExcessGuests } from './slots.js';

/**
 * Called when a member's roles change or they leave, or a server admin changes the guest-role entries: a
 * host whose slots shrank loses the newest guests beyond the remaining slots of their guest role (all of
 * them when no main role is left). Reads the host's roles under the host's lock, so an assignment running
 * at the same time is counted.
 */
export async function reconcileHostGuests(ctx: AppContext, guildId: string, hostId: string) {
  // Most members host nobody: answer without a transaction.
  if ((await hostGuests(ctx.db, guildId, hostId).limit(1)).length === 0) return;
  const member = await ctx.discord.getMember(guildId, hostId);
  const roleName = await roleNamer(ctx, guildId);
  const removed = await ctx.db.transaction(async (tx) => {
    await lockHost(tx, guildId, hostId);
    const mine = await hostGuests(tx, guildId, hostId);
    const all = await tx.select().from(guestRoles).where(eq(guestRoles.guildId, guildId));
    const excess = hostExcessGuests(all, member?.roles ?? null, mine);
    return markRemoving(tx, guildId, excess, null, 'guest.revoked_host_lost_role', roleName);
  });
  await finishRemoval(ctx, guildId, removed);
}

/**
 * A Discord guest left the server: Discord dropped all their roles, so their guest records go too and the
 * hosts' slots are free again. Each host's records change under that host's lock.
 */
export async function forgetDepartedGuest(ctx: AppContext, guildId: string, guestDiscordId: string) {
  const ofGuest = (db: Queryable, hostId?: string) =>
    db
      .select()
      .from(guests)
      .where(
        and(
          eq(guests.guildId, guildId),
          eq(guests.guestDiscordId, guestDiscordId),
          notRemoving,
          hostId ? eq(guests.hostUserId, hostId) : undefined,
        ),
      );
  const hosts = new Set((await ofGuest(ctx.db)).map((r) => r.hostUserId));
  const roleName = await roleNamer(ctx, guildId);
  for (const hostId of hosts) {
    const removed = await ctx.db.transaction(async (tx) => {
      await lockHost(tx, guildId, hostId);
      return markRemoving(tx, guildId, await ofGuest(tx, hostId), null, 'guest.left_server', roleName);
    });
    await finishRemoval(ctx, guildId, removed);
  }
}

/** A guest record this young may still be on its way to Discord (assign gives the role after the commit). */
export const GUEST_IN_FLIGHT_MS = 2 * 60_000;

/**
 * Catches up on what happened while the bot was not listening (a restart, a lost gateway connection) and
 * finishes what a crash left between a committed guest record and Discord: hosts whose slots shrank lose
 * their newest guests, guests who left are forgotten, 'assigning' and 'removing' records are completed and
 * an active guest who lost the role gets it back. A guest role held without any guest record was not given
 * by the product (a server admin gave it by hand) and is left alone.
 */
export async function reconcileGuildGuests(ctx: AppContext, guildId: string) {
  const hosts = await ctx.db
    .selectDistinct({ id: guests.hostUserId })
    .from(guests)
    .where(and(eq(guests.guildId, guildId), notRemoving));
  for (const host of hosts) await reconcileHostGuests(ctx, guildId, host.id);
  const discordGuests = await ctx.db
    .selectDistinct({ id: guests.guestDiscordId })
    .from(guests)
    .where(and(eq(guests.guildId, guildId), notRemoving, sql`${guests.guestDiscordId} is not null`));
  for (const guest of discordGuests) {
    if (guest.id && !(await ctx.discord.getMember(guildId, guest.id))) {
      await forgetDepartedGuest(ctx, guildId, guest.id);
    }
  }
  await repairGuestRoles(ctx, guildId);
}

/** Completes the records' intents in Discord (see `reconcileGuildGuests`); never touches an unrecorded role. */
async function repairGuestRoles(ctx: AppContext, guildId: string) {
  const records = await ctx.db
    .select()
    .from(guests)
    .where(and(eq(guests.guildId, guildId), sql`${guests.guestDiscordId} is not null`))
    .orderBy(asc(guests.createdAt), asc(guests.id));
  // Removals first, so a role another record still gives is seen as given below.
  for (const record of records.filter((r) => r.state === 'removing')) {
    try {
      await finishRemoval(ctx, guildId, [record]);
    } catch (err) {
      // One refusal (a role above the bot's) does not stop the others; the next run tries again.
      ctx.log.warn({ err, guildId, userId: record.guestDiscordId }, 'guest role not taken back');
    }
  }
  const settled = Date.now() - GUEST_IN_FLIGHT_MS;
  const roleName = await roleNamer(ctx, guildId);
  const given = new Set<string>();
  for (const record of records) {
    const userId = record.guestDiscordId;
    const key = `${userId}:${record.guestRoleId}`;
    if (!userId || record.state === 'removing' || record.createdAt.getTime() > settled) continue;
    const member = await ctx.discord.getMember(guildId, userId);
    if (!member) {
      // Gone (the departure pass above missed it by moments): no role to give, the record goes.
      if (record.state === 'assigning') await ctx.db.delete(guests).where(eq(guests.id, record.id));
      continue;
    }
    if (!given.has(key) && !member.roles.includes(record.guestRoleId)) {
      try {
        await ctx.discord.addRole(guildId, userId, record.guestRoleId, `Guest of ${record.hostUserId}`);
      } catch (err) {
        ctx.log.warn({ err, guildId, userId, roleId: record.guestRoleId }, 'guest role not restored');
        continue;
      }
      given.add(key);
      await audit(ctx.db, {
        action: 'guest.role_restored',
        actor: null,
        guildId,
        targetId: userId,
        details: {
          guestId: record.id,
          guestRoleId: record.guestRoleId,
          roleName: roleName(record.guestRoleId),
          hostUserId: record.hostUserId,
        },
      });
    }
    if (record.state === 'assigning') {
      await ctx.db
        .update(guests)
        .set({ state: 'active' })
        .where(and(eq(guests.id, record.id), eq(guests.state, 'assigning')));
    }
  }
}

/** `reconcileGuildGuests` for every server the bot is in (the scheduled `guests.reconcile` job). */
export async function reconcileAllGuildGuests(ctx: AppContext, signal?: AbortSignal) {
  for (const guildId of await ctx.discord.botGuildIds()) {
    // Time is up (the job's limit, or the worker stops): the next run starts over; each server is idempotent.
    if (signal?.aborted) return;
    try {
      await reconcileGuildGuests(ctx, guildId);
    } catch (err) {
      ctx.log.warn({ err, guildId }, 'guest roles could not be reconciled');
    }
  }
}

/**
 * A deleted account's guest records, as host or as guest, in every server: marked 'removing' under each
 * host's lock (audit-logged), then the guest roles the product gave are taken back and the records deleted.
 * Only records made up to `madeBy` (the deletion request): a guest slot of the person's new account, made
 * after they signed in again, is not the deleted account's.
 */
export async function removeGuestsOfUser(ctx: AppContext, userId: string, actor: Actor, madeBy: string) {
  const theirs = sql`(${guests.hostUserId} = ${userId} or ${guests.guestDiscordId} = ${userId})
    and ${guests.createdAt} <= ${madeBy}`;
  const records = await ctx.db
    .select({ guildId: guests.guildId, hostUserId: guests.hostUserId })
    .from(guests)
    .where(theirs);
  const pairs = new Map(records.map((r) => [`${r.guildId}:${r.hostUserId}`, r]));
  for (const { guildId, hostUserId } of pairs.values()) {
    const roleName = await roleNamer(ctx, guildId);
    const removed = await ctx.db.transaction(async (tx) => {
      await lockHost(tx, guildId, hostUserId);
      const list = await tx
        .select()
        .from(guests)
        .where(and(eq(guests.guildId, guildId), eq(guests.hostUserId, hostUserId), theirs));
      // Records already 'removing' are finished below too (a crash between mark and removal).
      const fresh = list.filter((g) => g.state !== 'removing');
      await markRemoving(tx, guildId, fresh, actor, 'guest.removed_account_deleted', roleName);
      return list;
    });
    await finishRemoval(ctx, guildId, removed);
  }
}
