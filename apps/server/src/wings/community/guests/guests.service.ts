import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { releaseCooldown, takeCooldown } from '../../../db/cooldown.js';
import { guestRoles, guests } from '../../../db/schema/index.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, limited, missing, refused } from '../../../kernel/errors.js';
import type { DiscordMemberInfo } from '../../../platforms/ports.js';
import { findLinkByDiscord, linkedDiscordIds, profileUrl } from '../../identity/index.js';
import {
  finishRemoval,
  type GuestRow,
  hostGuests,
  lockHost,
  markRemoving,
  notRemoving,
  roleNamer,
  takeGuestRoles,
} from './guest-removal.js';
import { entryWithRoom, freeSlots, heldEntries, slotsCount } from './slots.js';

export const NO_FREE_SLOTS = 'No free guest slots available.';
export const NOT_A_HOST = 'You cannot set up guests in this server.';
export const VRCHAT_SEARCH_COOLDOWN_MS = 5000;

function toGuest(g: GuestRow) {
  return {
    id: g.id,
    guestUsername: g.guestUsername,
    guestVrcName: g.guestVrcName,
    guestVrcId: g.guestVrcId,
    guestProfilePicUrl: g.guestProfilePicUrl,
  };
}

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
