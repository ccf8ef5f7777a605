import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guests } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { DiscordError } from '../../../platforms/discord/errors.js';

/**
 * What both the host's actions (guests.service.ts) and the reconciliation (guests.reconcile.ts) use: the
 * host's lock and guests, and removing a guest in two steps (mark 'removing' in a transaction, then take the
 * role and delete the record).
 */

export type GuestRow = typeof guests.$inferSelect;

/** A guest that still counts: 'assigning' takes a slot, 'removing' is gone already (listed, counted nowhere). */
export const notRemoving = ne(guests.state, 'removing');

/** A host's guests in one server ('removing' ones left out), oldest first. */
export const hostGuests = (db: Queryable, guildId: string, hostId: string) =>
  db
    .select()
    .from(guests)
    .where(and(eq(guests.guildId, guildId), eq(guests.hostUserId, hostId), notRemoving))
    .orderBy(asc(guests.createdAt), asc(guests.id));

/** A role's name now, for audit entries (its id when the role is gone). Read before any transaction opens. */
export async function roleNamer(ctx: AppContext, guildId: string) {
  const guild = await ctx.discord.getGuild(guildId);
  return (id: string) => guild?.roles.find((r) => r.id === id)?.name ?? id;
}

/** Serialises slot changes of one host (assign, unassign, slots shrinking) across server processes. */
export async function lockHost(tx: Queryable, guildId: string, hostId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`guests:${guildId}:${hostId}`}))`);
}

/** Whether another record (not being removed) also gives this person the same guest role (then it stays). */
async function isGuestOfAnother(tx: Queryable, guest: GuestRow): Promise<boolean> {
  if (!guest.guestDiscordId) return false;
  const others = await tx
    .select({ id: guests.id })
    .from(guests)
    .where(
      and(
        eq(guests.guildId, guest.guildId),
        eq(guests.guestDiscordId, guest.guestDiscordId),
        eq(guests.guestRoleId, guest.guestRoleId),
        ne(guests.id, guest.id),
        notRemoving,
      ),
    )
    .limit(1);
  return others.length > 0;
}

/**
 * Marks the guest records 'removing' (inside the caller's transaction), audit-logged one by one: from the
 * commit on they are gone for slots and lists; `finishRemoval` then takes the role and deletes them.
 */
export async function markRemoving(
  tx: Queryable,
  guildId: string,
  list: GuestRow[],
  actor: Actor | null,
  action: string,
  roleName: (id: string) => string,
): Promise<GuestRow[]> {
  for (const guest of list) {
    await tx.update(guests).set({ state: 'removing' }).where(eq(guests.id, guest.id));
    await audit(tx, {
      action,
      actor,
      guildId,
      targetId: guest.guestDiscordId ?? guest.guestVrcId,
      details: {
        guestId: guest.id,
        hostUserId: guest.hostUserId,
        guestRoleId: guest.guestRoleId,
        roleName: roleName(guest.guestRoleId),
      },
    });
  }
  return list;
}

/**
 * After the 'removing' mark was committed: takes the guest role back, then deletes the record. A crash in
 * between leaves a 'removing' record, which `reconcileGuildGuests` finishes the same way.
 */
export async function finishRemoval(ctx: AppContext, guildId: string, removed: GuestRow[]) {
  for (const guest of removed) {
    await takeGuestRoles(ctx, guildId, [guest]);
    await ctx.db.delete(guests).where(eq(guests.id, guest.id));
  }
}

/** Takes the guest role back from Discord guests no other record gives it to (no transaction open). */
export async function takeGuestRoles(ctx: AppContext, guildId: string, removed: GuestRow[]) {
  for (const guest of removed) {
    // Not checked against the member's known roles: the role may have been added moments ago and the
    // gateway event not arrived yet. Removing a role the member does not have is a no-op for Discord,
    // and a member who is gone (404) has no roles left to take.
    if (guest.guestDiscordId && !(await isGuestOfAnother(ctx.db, guest))) {
      await ctx.discord
        .removeRole(guildId, guest.guestDiscordId, guest.guestRoleId, 'Guest slot removed')
        .catch((err) => {
          if (!(err instanceof DiscordError && err.status === 404)) throw err;
        });
    }
  }
}
