import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { releaseCooldown, takeCooldown } from '../../../db/cooldown.js';
import { guestRoles, guests } from '../../../db/schema/index.js';
import { type Actor, userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, limited, missing, refused } from '../../../kernel/errors.js';
import { DiscordError } from '../../../platforms/discord/errors.js';
import type { DiscordMemberInfo } from '../../../platforms/ports.js';
import { findLinkByDiscord, linkedDiscordIds, profileUrl } from '../../identity/index.js';
import { entryWithRoom, freeSlots, heldEntries, hostExcessGuests, slotsCount } from './slots.js';

export const NO_FREE_SLOTS = 'No free guest slots available.';
export const NOT_A_HOST = 'You cannot set up guests in this server.';
export const VRCHAT_SEARCH_COOLDOWN_MS = 5000;

type GuestRow = typeof guests.$inferSelect;

function toGuest(g: GuestRow) {
  return {
    id: g.id,
    guestUsername: g.guestUsername,
    guestVrcName: g.guestVrcName,
    guestVrcId: g.guestVrcId,
    guestProfilePicUrl: g.guestProfilePicUrl,
  };
}

/** A guest that still counts: 'assigning' takes a slot, 'removing' is gone already (listed, counted nowhere). */
export const notRemoving = ne(guests.state, 'removing');

/** A host's guests in one server ('removing' ones left out), oldest first. */
const hostGuests = (db: Queryable, guildId: string, hostId: string) =>
  db
    .select()
    .from(guests)
    .where(and(eq(guests.guildId, guildId), eq(guests.hostUserId, hostId), notRemoving))
    .orderBy(asc(guests.createdAt), asc(guests.id));

/** The caller as a host in this server: their held guest-role entries and current guests. */
async function hostContext(
  ctx: AppContext,
  guildId: string,
  hostId: string,
  db: Queryable = ctx.db,
  // Members are read from the member mirror, so inside a transaction they are read before it (PGlite has
  // one connection: a read outside the transaction would wait for it forever).
  hostMember?: DiscordMemberInfo | null,
) {
  const member = hostMember === undefined ? await ctx.discord.getMember(guildId, hostId) : hostMember;
  if (!member) throw refused(NOT_A_HOST);
  const all = await db.select().from(guestRoles).where(eq(guestRoles.guildId, guildId));
  const held = heldEntries(all, member.roles);
  if (held.length === 0) throw refused(NOT_A_HOST);
  // PGlite has one connection: inside a transaction every read must use the transaction.
  const mine = await hostGuests(db, guildId, hostId);
  return { member, held, guests: mine, slots: slotsCount(held) };
}

/** A role's name now, for audit entries (its id when the role is gone). Read before any transaction opens. */
async function roleNamer(ctx: AppContext, guildId: string) {
  const guild = await ctx.discord.getGuild(guildId);
  return (id: string) => guild?.roles.find((r) => r.id === id)?.name ?? id;
}

export async function getGuestInfo(ctx: AppContext, guildId: string, hostId: string) {
  const host = await hostContext(ctx, guildId, hostId);
  const guild = await ctx.discord.getGuild(guildId);
  const roleName = (id: string) => guild?.roles.find((r) => r.id === id)?.name ?? id;
  const unique = (ids: string[]) => [...new Set(ids)];
  return {
    slotsCount: host.slots,
    primaryRoleName: unique(host.held.map((e) => e.mainRoleId))
      .map(roleName)
      .join(', '),
    guestRoleName: unique(host.held.map((e) => e.guestRoleId))
      .map(roleName)
      .join(', '),
    guests: host.guests.map(toGuest),
  };
}

/** Serialises slot changes of one host (assign, unassign, slots shrinking) across server processes. */
async function lockHost(tx: Queryable, guildId: string, hostId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`guests:${guildId}:${hostId}`}))`);
}

export async function searchGuests(
  ctx: AppContext,
  guildId: string,
  hostId: string,
  q: { memberQuery?: string; vrcQuery?: string },
) {
  await hostContext(ctx, guildId, hostId);
  if (q.memberQuery) {
    const members = await ctx.discord.searchMembers(guildId, q.memberQuery, 25);
    const ids = members.map((m) => m.userId);
    const linkedIds = await linkedDiscordIds(ctx.db, ids);
    return {
      results: members
        .filter((m) => m.userId !== hostId)
        .map((m) => ({
          isDiscordUser: true,
          discordId: m.userId,
          discordName: m.displayName || m.username,
          discordIcon: m.avatarUrl,
          hasLinkedVrc: linkedIds.has(m.userId),
        })),
    };
  }
  const query = q.vrcQuery ?? '';
  // One VRChat search per host every 5 s: VRChat's API is shared by every server using the bot.
  // Kept in the database so the limit holds across every server process.
  const cooldownKey = `vrchat-guest-search:${hostId}`;
  const wait = await takeCooldown(ctx.db, cooldownKey, VRCHAT_SEARCH_COOLDOWN_MS);
  if (wait > 0) throw limited(`Please wait ${Math.ceil(wait / 1000)}s before searching VRChat again.`);
  // A search VRChat did not answer (rate limited, unreachable) does not spend the cooldown.
  const users = await ctx.vrchat.searchUsers(query, { n: 20 }).catch(async (err: unknown) => {
    await releaseCooldown(ctx.db, cooldownKey);
    throw err;
  });
  return {
    results: users.map((u) => ({
      isDiscordUser: false,
      vrcId: u.id,
      vrcName: u.displayName,
      profileUrl: profileUrl(ctx, u.id),
    })),
  };
}

export type AssignInput = { discordId: string } | { vrcId: string; vrcDisplayName: string };

/**
 * No platform call while a transaction is open (PGlite has one connection, so an open transaction waits
 * for Discord or VRChat and every other request waits for it; a killed process loses what the transaction
 * held). Hence: the guest record (the intent, state 'assigning') is written and committed first, then the
 * role is given and the record marked 'active'. A crash in between leaves an 'assigning' record, which
 * `reconcileGuildGuests` completes.
 */
type HostState = Awaited<ReturnType<typeof hostContext>>;

/** The guest-role entry the new guest takes a slot of; throws what the host did wrong. */
function entryFor(host: HostState, hostId: string, input: AssignInput) {
  if (freeSlots(host.slots, host.guests.length) <= 0) throw invalid(NO_FREE_SLOTS);
  const byRole = new Map<string, number>();
  for (const g of host.guests) byRole.set(g.guestRoleId, (byRole.get(g.guestRoleId) ?? 0) + 1);
  const entry = entryWithRoom(host.held, byRole);
  if (!entry) throw invalid(NO_FREE_SLOTS);
  if ('discordId' in input) {
    if (input.discordId === hostId) throw invalid('You cannot add yourself as a guest.');
    if (host.guests.some((g) => g.guestDiscordId === input.discordId))
      throw conflict('That user is already your guest.');
  } else if (host.guests.some((g) => g.guestVrcId === input.vrcId)) {
    throw conflict('That user is already your guest.');
  }
  return entry;
}

export async function assignGuest(ctx: AppContext, guildId: string, hostId: string, input: AssignInput) {
  const hostMember = await ctx.discord.getMember(guildId, hostId);
  const roleName = await roleNamer(ctx, guildId);
  // Checked before asking VRChat, so a host without a free slot costs no VRChat call; checked again below.
  entryFor(await hostContext(ctx, guildId, hostId, ctx.db, hostMember), hostId, input);
  const guestMember = 'discordId' in input ? await ctx.discord.getMember(guildId, input.discordId) : null;
  if ('discordId' in input && !guestMember)
    throw missing('That Discord user is not a member of this server.');
  const vrcUser = 'vrcId' in input ? await ctx.vrchat.getUser(input.vrcId) : null;
  if ('vrcId' in input && !vrcUser) throw missing('VRChat user not found.');

  // Serialise assignments per host so two quick clicks cannot overrun the slot limit.
  const created = await ctx.db.transaction(async (tx) => {
    await lockHost(tx, guildId, hostId);
    const host = await hostContext(ctx, guildId, hostId, tx, hostMember);
    const entry = entryFor(host, hostId, input);
    let row: typeof guests.$inferInsert;
    if (guestMember) {
      const link = await findLinkByDiscord(tx, guestMember.userId);
      row = {
        guildId,
        hostUserId: hostId,
        guestRoleId: entry.guestRoleId,
        guestDiscordId: guestMember.userId,
        guestUsername: guestMember.username,
        guestVrcId: link?.vrcUserId ?? null,
        guestVrcName: link?.vrchatName ?? null,
        guestProfilePicUrl: guestMember.avatarUrl,
        state: 'assigning',
      };
    } else if (vrcUser && 'vrcId' in input) {
      row = {
        guildId,
        hostUserId: hostId,
        guestRoleId: entry.guestRoleId,
        guestVrcId: vrcUser.id,
        guestVrcName: vrcUser.displayName || input.vrcDisplayName,
        guestProfilePicUrl: vrcUser.thumbnailUrl,
      };
    } else {
      throw missing('VRChat user not found.');
    }
    const [inserted] = await tx.insert(guests).values(row).returning();
    await audit(tx, {
      action: 'guest.assigned',
      actor: userActor(hostId),
      guildId,
      targetId: inserted.guestDiscordId ?? inserted.guestVrcId,
      details: {
        guestId: inserted.id,
        guestRoleId: inserted.guestRoleId,
        roleName: roleName(inserted.guestRoleId),
      },
    });
    return inserted;
  });

  if (created.guestDiscordId) {
    try {
      await ctx.discord.addRole(guildId, created.guestDiscordId, created.guestRoleId, `Guest of ${hostId}`);
    } catch (err) {
      // Discord refused: the record goes again.
      await ctx.db.transaction(async (tx) => {
        await lockHost(tx, guildId, hostId);
        await tx.delete(guests).where(eq(guests.id, created.id));
        await audit(tx, {
          action: 'guest.assign_failed',
          actor: userActor(hostId),
          guildId,
          targetId: created.guestDiscordId,
          details: {
            guestId: created.id,
            guestRoleId: created.guestRoleId,
            roleName: roleName(created.guestRoleId),
            error: String(err),
          },
        });
      });
      throw err;
    }
    const [active] = await ctx.db
      .update(guests)
      .set({ state: 'active' })
      .where(and(eq(guests.id, created.id), eq(guests.state, 'assigning')))
      .returning({ id: guests.id });
    // Already active: the reconciliation confirmed it meanwhile. Gone or 'removing': the guest was removed
    // while the role was on its way, and that removal may have taken the role before it arrived.
    if (!active) {
      const [still] = await ctx.db.select().from(guests).where(eq(guests.id, created.id)).limit(1);
      if (!still || still.state === 'removing') await takeGuestRoles(ctx, guildId, [created]);
    }
  }
  return toGuest(created);
}

export async function unassignGuest(ctx: AppContext, guildId: string, hostId: string, guestId: string) {
  const roleName = await roleNamer(ctx, guildId);
  const removed = await ctx.db.transaction(async (tx) => {
    await lockHost(tx, guildId, hostId);
    const rows = await tx
      .select()
      .from(guests)
      .where(
        and(eq(guests.id, guestId), eq(guests.guildId, guildId), eq(guests.hostUserId, hostId), notRemoving),
      )
      .limit(1);
    if (!rows[0]) throw missing('Guest not found.');
    return markRemoving(tx, guildId, rows, userActor(hostId), 'guest.unassigned', roleName);
  });
  await finishRemoval(ctx, guildId, removed);
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
async function markRemoving(
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
async function finishRemoval(ctx: AppContext, guildId: string, removed: GuestRow[]) {
  for (const guest of removed) {
    await takeGuestRoles(ctx, guildId, [guest]);
    await ctx.db.delete(guests).where(eq(guests.id, guest.id));
  }
}

/** Takes the guest role back from Discord guests no other record gives it to (no transaction open). */
async function takeGuestRoles(ctx: AppContext, guildId: string, removed: GuestRow[]) {
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
export async function reconcileAllGuildGuests(ctx: AppContext) {
  for (const guildId of await ctx.discord.botGuildIds()) {
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
 */
export async function removeGuestsOfUser(ctx: AppContext, userId: string, actor: Actor) {
  const records = await ctx.db
    .select({ guildId: guests.guildId, hostUserId: guests.hostUserId })
    .from(guests)
    .where(sql`${guests.hostUserId} = ${userId} or ${guests.guestDiscordId} = ${userId}`);
  const pairs = new Map(records.map((r) => [`${r.guildId}:${r.hostUserId}`, r]));
  for (const { guildId, hostUserId } of pairs.values()) {
    const roleName = await roleNamer(ctx, guildId);
    const removed = await ctx.db.transaction(async (tx) => {
      await lockHost(tx, guildId, hostUserId);
      const list = await tx
        .select()
        .from(guests)
        .where(
          and(
            eq(guests.guildId, guildId),
            eq(guests.hostUserId, hostUserId),
            sql`(${guests.hostUserId} = ${userId} or ${guests.guestDiscordId} = ${userId})`,
          ),
        );
      // Records already 'removing' are finished below too (a crash between mark and removal).
      const fresh = list.filter((g) => g.state !== 'removing');
      await markRemoving(tx, guildId, fresh, actor, 'guest.removed_account_deleted', roleName);
      return list;
    });
    await finishRemoval(ctx, guildId, removed);
  }
}
