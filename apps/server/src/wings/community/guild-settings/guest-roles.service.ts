import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guestRoles } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, missing } from '../../../kernel/errors.js';
import { deleteAudited, rowOrMissing } from '../../../kernel/rows.js';
import { GUEST_ROLE_CHANGED, isStale } from '../../../kernel/versions.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';
import { requireGuildPermission } from '../../access/index.js';
import { reconcileGuildGuests } from '../guests/guests.reconcile.js';
import { assignableRoleProblem, roleChoiceProblem } from './assignable-role.js';
import { type GuestRoleUpdate, MAX_GUEST_ROLE_ENTRIES } from './guild-settings.schemas.js';

export const GUEST_ROLE_NOT_FOUND = 'Guest role not found.';
export const TOO_MANY_GUEST_ROLES = `A server can have at most ${MAX_GUEST_ROLE_ENTRIES} guest roles.`;
export const SAME_MAIN_AND_GUEST_ROLE = 'The guest role must differ from the main role.';

type EntryRow = typeof guestRoles.$inferSelect;

const toEntry = (row: EntryRow) => ({
  id: row.id,
  primaryRoleId: row.mainRoleId,
  guestRoleId: row.guestRoleId,
  count: row.count,
  version: row.version,
});

/** A server's guest-role entries, oldest first. */
export const guestRoleEntriesOf = (db: Queryable, guildId: string) =>
  db
    .select()
    .from(guestRoles)
    .where(eq(guestRoles.guildId, guildId))
    .orderBy(asc(guestRoles.createdAt), asc(guestRoles.id));

async function findEntry(ctx: AppContext, guildId: string, id: string): Promise<EntryRow> {
  const where = and(eq(guestRoles.guildId, guildId), eq(guestRoles.id, id));
  return rowOrMissing(ctx.db, guestRoles, where, GUEST_ROLE_NOT_FOUND);
}

/** Whether hosts may have fewer slots after the change: the entry gave slots and lost count or roles. */
function maySlotsShrink(before: EntryRow, after: EntryRow | null): boolean {
  const gaveSlots = before.mainRoleId !== null && before.guestRoleId !== null && before.count > 0;
  if (!gaveSlots) return false;
  return (
    !after ||
    after.count < before.count ||
    after.mainRoleId !== before.mainRoleId ||
    after.guestRoleId !== before.guestRoleId
  );
}

/**
 * Hosts over their new limit lose their newest guests (guests holding a guest role no entry of theirs
 * gives any more lose it too). The change is saved already: if Discord refuses now, the bot's next
 * catch-up finishes the job, so the admin's answer does not fail for it.
 */
async function reconcileAfterChange(ctx: AppContext, guildId: string) {
  try {
    await reconcileGuildGuests(ctx, guildId);
  } catch (err) {
    ctx.log.warn({ err, guildId }, 'guest slots could not be reconciled after a guest-role change');
  }
}

export async function listGuestRoles(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  return { guestRoles: (await guestRoleEntriesOf(ctx.db, guildId)).map(toEntry) };
}

/** 'Add': an empty entry (no roles, count 0), which gives no slots until both roles are chosen. */
export async function createGuestRole(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const list = await ctx.db.transaction(async (tx) => {
    // Serialised per server so two quick clicks cannot pass the limit together.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`guest_roles:${guildId}`}))`);
    const [{ n }] = await tx.select({ n: count() }).from(guestRoles).where(eq(guestRoles.guildId, guildId));
    if (n >= MAX_GUEST_ROLE_ENTRIES) throw conflict(TOO_MANY_GUEST_ROLES);
    const [row] = await tx.insert(guestRoles).values({ guildId }).returning();
    await audit(tx, { action: 'guest_role.create', actor, guildId, targetId: row.id });
    return guestRoleEntriesOf(tx, guildId);
  });
  return { guestRoles: list.map(toEntry) };
}

/** Throws 400 for a role that cannot be chosen; roles already saved are not checked again. */
async function checkRoles(
  ctx: AppContext,
  guild: DiscordGuildInfo,
  row: EntryRow,
  next: { mainRoleId: string | null; guestRoleId: string | null },
) {
  const mainChanged = next.mainRoleId !== row.mainRoleId;
  const guestChanged = next.guestRoleId !== row.guestRoleId;
  const main = mainChanged && next.mainRoleId ? roleChoiceProblem(guild, next.mainRoleId) : null;
  if (main) throw invalid(main);
  if (guestChanged && next.guestRoleId) {
    // The bot gives the guest role to every guest, so it must be able to.
    const bot = await ctx.discord.botMember(guild.id);
    const problem = assignableRoleProblem(guild, bot?.roles ?? [], next.guestRoleId);
    if (problem) throw invalid(problem);
  }
  if ((mainChanged || guestChanged) && next.mainRoleId && next.mainRoleId === next.guestRoleId)
    throw invalid(SAME_MAIN_AND_GUEST_ROLE);
}

/** Changes an entry's main role, guest role or count (Admin); hosts who lose slots lose their newest guests. */
export async function updateGuestRole(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: GuestRoleUpdate,
) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const row = await findEntry(ctx, guildId, change.id);
  // Stale already: answered before Discord is asked about the roles (checked again under the row's lock).
  if (isStale(change.version, row.version)) throw conflict(GUEST_ROLE_CHANGED);
  const next = {
    mainRoleId: change.primaryRoleId === undefined ? row.mainRoleId : change.primaryRoleId,
    guestRoleId: change.guestRoleId === undefined ? row.guestRoleId : change.guestRoleId,
  };
  await checkRoles(ctx, guild, row, next);
  const { before, updated } = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(guestRoles).where(eq(guestRoles.id, row.id)).for('update');
    if (!current) throw missing(GUEST_ROLE_NOT_FOUND);
    if (isStale(change.version, current.version)) throw conflict(GUEST_ROLE_CHANGED);
    const [result] = await tx
      .update(guestRoles)
      .set({ ...next, count: change.count ?? current.count, version: current.version + 1 })
      .where(eq(guestRoles.id, row.id))
      .returning();
    await audit(tx, {
      action: 'guest_role.update',
      actor,
      guildId,
      targetId: row.id,
      details: { before: toEntry(current), after: toEntry(result), summary: entrySummary(guild, result) },
    });
    return { before: current, updated: result };
  });
  // A new guest role takes the old one back from the entry's guests (slots count per role); hosts re-add them.
  if (maySlotsShrink(before, updated)) await reconcileAfterChange(ctx, guildId);
  return toEntry(updated);
}

/** The audit summary of an entry: its roles by name, so the log still reads after a role is renamed or deleted. */
function entrySummary(guild: DiscordGuildInfo, row: EntryRow) {
  const name = (id: string | null) => (id ? (guild.roles.find((r) => r.id === id)?.name ?? id) : 'none');
  return `Main role ${name(row.mainRoleId)} · guest role ${name(row.guestRoleId)} · ${row.count} guests`;
}

export async function deleteGuestRole(ctx: AppContext, actor: Actor, guildId: string, id: string) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const where = and(eq(guestRoles.guildId, guildId), eq(guestRoles.id, id));
  const removed = await deleteAudited(ctx.db, guestRoles, where, (row) => ({
    action: 'guest_role.delete',
    actor,
    guildId,
    targetId: row.id,
    details: { before: toEntry(row), summary: entrySummary(guild, row) },
  }));
  if (!removed) throw missing(GUEST_ROLE_NOT_FOUND);
  if (maySlotsShrink(removed, null)) await reconcileAfterChange(ctx, guildId);
}
