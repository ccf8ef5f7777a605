import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Actor, userActor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { takeCooldown } from '../../db/cooldown.js';
import { guestRoles, guests, vrchatLinks } from '../../db/schema/index.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors.js';
import { DiscordError } from '../../platforms/discord/errors.js';
import type { DiscordMemberInfo } from '../../platforms/ports.js';
import { audit } from '../audit/audit.service.js';
import { profileUrl } from '../links/links.service.js';
import { entryWithRoom, freeSlots, guestsOverLimit, heldEntries, slotsCount } from './slots.js';

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

/** A host's guests in one server, oldest first. */
const hostGuests = (db: Queryable, guildId: string, hostId: string) =>
  db
    .select()
    .from(guests)
    .where(and(eq(guests.guildId, guildId), eq(guests.hostUserId, hostId)))
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
  if (!member) throw forbidden(NOT_A_HOST);
  const all = await db.select().from(guestRoles).where(eq(guestRoles.guildId, guildId));
  const held = heldEntries(all, member.roles);
  if (held.length === 0) throw forbidden(NOT_A_HOST);
  // PGlite has one connection: inside a transaction every read must use the transaction.
  const mine = await hostGuests(db, guildId, hostId);
  return { member, held, guests: mine, slots: slotsCount(held) };
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
    const linked = ids.length
      ? await ctx.db
          .select({ id: vrchatLinks.discordUserId })
          .from(vrchatLinks)
          .where(inArray(vrchatLinks.discordUserId, ids))
      : [];
    const linkedIds = new Set(linked.map((l) => l.id));
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
  const wait = await takeCooldown(ctx.db, `vrchat-guest-search:${hostId}`, VRCHAT_SEARCH_COOLDOWN_MS);
  if (wait > 0)
    throw new HttpError(429, `Please wait ${Math.ceil(wait / 1000)}s before searching VRChat again.`);
  const users = await ctx.vrchat.searchUsers(query, { n: 20 });
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

export async function assignGuest(ctx: AppContext, guildId: string, hostId: string, input: AssignInput) {
  const hostMember = await ctx.discord.getMember(guildId, hostId);
  const guestMember = 'discordId' in input ? await ctx.discord.getMember(guildId, input.discordId) : null;
  // Serialise assignments per host so two quick clicks cannot overrun the slot limit.
  return ctx.db.transaction(async (tx) => {
    await lockHost(tx, guildId, hostId);
    const host = await hostContext(ctx, guildId, hostId, tx, hostMember);
    if (freeSlots(host.slots, host.guests.length) <= 0) throw badRequest(NO_FREE_SLOTS);
    const byRole = new Map<string, number>();
    for (const g of host.guests) byRole.set(g.guestRoleId, (byRole.get(g.guestRoleId) ?? 0) + 1);
    const entry = entryWithRoom(host.held, byRole);
    if (!entry) throw badRequest(NO_FREE_SLOTS);

    let row: typeof guests.$inferInsert;
    if ('discordId' in input) {
      if (input.discordId === hostId) throw badRequest('You cannot add yourself as a guest.');
      if (host.guests.some((g) => g.guestDiscordId === input.discordId))
        throw conflict('That user is already your guest.');
      const member = guestMember;
      if (!member) throw notFound('That Discord user is not a member of this server.');
      const link = (
        await tx.select().from(vrchatLinks).where(eq(vrchatLinks.discordUserId, input.discordId)).limit(1)
      )[0];
      row = {
        guildId,
        hostUserId: hostId,
        guestRoleId: entry.guestRoleId,
        guestDiscordId: member.userId,
        guestUsername: member.username,
        guestVrcId: link?.vrcUserId ?? null,
        guestVrcName: link?.vrchatName ?? null,
        guestProfilePicUrl: member.avatarUrl,
      };
      await ctx.discord.addRole(guildId, member.userId, entry.guestRoleId, `Guest of ${hostId}`);
    } else {
      if (host.guests.some((g) => g.guestVrcId === input.vrcId))
        throw conflict('That user is already your guest.');
      const user = await ctx.vrchat.getUser(input.vrcId);
      if (!user) throw notFound('VRChat user not found.');
      row = {
        guildId,
        hostUserId: hostId,
        guestRoleId: entry.guestRoleId,
        guestVrcId: user.id,
        guestVrcName: user.displayName || input.vrcDisplayName,
        guestProfilePicUrl: user.thumbnailUrl,
      };
    }
    const [created] = await tx.insert(guests).values(row).returning();
    await audit(tx, {
      action: 'guest.assigned',
      actor: userActor(hostId),
      guildId,
      targetId: created.guestDiscordId ?? created.guestVrcId,
      details: { guestId: created.id, guestRoleId: created.guestRoleId },
    });
    return toGuest(created);
  });
}

export async function unassignGuest(ctx: AppContext, guildId: string, hostId: string, guestId: string) {
  await ctx.db.transaction(async (tx) => {
    await lockHost(tx, guildId, hostId);
    const rows = await tx
      .select()
      .from(guests)
      .where(and(eq(guests.id, guestId), eq(guests.guildId, guildId), eq(guests.hostUserId, hostId)))
      .limit(1);
    if (!rows[0]) throw notFound('Guest not found.');
    await removeGuests(ctx, tx, guildId, rows, userActor(hostId), 'guest.unassigned');
  });
}

/** Whether another host also gave this person the same guest role (then it stays). */
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
      ),
    )
    .limit(1);
  return others.length > 0;
}

/** Takes the guest role back (Discord guests) and deletes the records, audit-logged one by one. */
async function removeGuests(
  ctx: AppContext,
  tx: Queryable,
  guildId: string,
  list: GuestRow[],
  actor: Actor | null,
  action: string,
) {
  for (const guest of list) {
    await tx.delete(guests).where(eq(guests.id, guest.id));
    // Not checked against the member's known roles: the role may have been added moments ago and the
    // gateway event not arrived yet. Removing a role the member does not have is a no-op for Discord,
    // and a member who is gone (404) has no roles left to take.
    if (guest.guestDiscordId && !(await isGuestOfAnother(tx, guest))) {
      await ctx.discord
        .removeRole(guildId, guest.guestDiscordId, guest.guestRoleId, 'Guest slot removed')
        .catch((err) => {
          if (!(err instanceof DiscordError && err.status === 404)) throw err;
        });
    }
    await audit(tx, {
      action,
      actor,
      guildId,
      targetId: guest.guestDiscordId ?? guest.guestVrcId,
      details: { guestId: guest.id, hostUserId: guest.hostUserId },
    });
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
  await ctx.db.transaction(async (tx) => {
    await lockHost(tx, guildId, hostId);
    const mine = await hostGuests(tx, guildId, hostId);
    const all = await tx.select().from(guestRoles).where(eq(guestRoles.guildId, guildId));
    const excess = guestsOverLimit(mine, member ? heldEntries(all, member.roles) : []);
    if (excess.length) await removeGuests(ctx, tx, guildId, excess, null, 'guest.revoked_host_lost_role');
  });
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
          hostId ? eq(guests.hostUserId, hostId) : undefined,
        ),
      );
  const hosts = new Set((await ofGuest(ctx.db)).map((r) => r.hostUserId));
  for (const hostId of hosts) {
    await ctx.db.transaction(async (tx) => {
      await lockHost(tx, guildId, hostId);
      await removeGuests(ctx, tx, guildId, await ofGuest(tx, hostId), null, 'guest.left_server');
    });
  }
}

/**
 * Catches up on what happened while the bot was not listening (a restart, a lost gateway connection):
 * hosts whose slots shrank lose their newest guests, and guests who left are forgotten.
 */
export async function reconcileGuildGuests(ctx: AppContext, guildId: string) {
  const hosts = await ctx.db
    .selectDistinct({ id: guests.hostUserId })
    .from(guests)
    .where(eq(guests.guildId, guildId));
  for (const host of hosts) await reconcileHostGuests(ctx, guildId, host.id);
  const discordGuests = await ctx.db
    .selectDistinct({ id: guests.guestDiscordId })
    .from(guests)
    .where(and(eq(guests.guildId, guildId), sql`${guests.guestDiscordId} is not null`));
  for (const guest of discordGuests) {
    if (guest.id && !(await ctx.discord.getMember(guildId, guest.id))) {
      await forgetDepartedGuest(ctx, guildId, guest.id);
    }
  }
}
