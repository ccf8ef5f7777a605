/**
 * What a change of a guest-role entry (main role, guest role, count, or its deletion) would make the bot do
 * to existing guests, before it is saved: the guests module's own rule (`hostExcessGuests`, which
 * `reconcileHostGuests` applies after the save), run with the entries as they are and as they would be.
 */
import { and, asc, eq } from 'drizzle-orm';
import { guestRoles, guests } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { notRemoving } from './guest-removal.js';
import { type GuestRoleEntry, hostExcessGuests } from './slots.js';

export interface GuestRoleChange {
  id: string;
  /** The entry's new values (left out: unchanged); null deletes the entry. */
  entry: { primaryRoleId?: string | null; guestRoleId?: string | null; count?: number } | null;
}

type GuestRow = typeof guests.$inferSelect;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const byName = (a: string, b: string) => a.localeCompare(b);

/** The entries after the change; throws 404 for an entry not of this server. */
function entriesAfter(entries: GuestRoleEntry[], change: GuestRoleChange): GuestRoleEntry[] {
  const target = entries.find((e) => e.id === change.id);
  if (!target) throw missing('Guest role not found.');
  const next = change.entry;
  if (!next) return entries.filter((e) => e !== target);
  const pick = <T>(v: T | undefined, now: T) => (v === undefined ? now : v);
  return entries.map((e) =>
    e === target
      ? {
          ...e,
          mainRoleId: pick(next.primaryRoleId, e.mainRoleId),
          guestRoleId: pick(next.guestRoleId, e.guestRoleId),
          count: pick(next.count, e.count),
        }
      : e,
  );
}

/** The guests the change would remove (beyond those the current entries already remove). */
async function guestsRemovedBy(ctx: AppContext, guildId: string, change: GuestRoleChange) {
  const now = await ctx.db.select().from(guestRoles).where(eq(guestRoles.guildId, guildId));
  const next = entriesAfter(now, change);
  const records = await ctx.db
    .select()
    .from(guests)
    .where(and(eq(guests.guildId, guildId), notRemoving))
    .orderBy(asc(guests.createdAt), asc(guests.id));
  const byHost = new Map<string, GuestRow[]>();
  for (const g of records) byHost.set(g.hostUserId, [...(byHost.get(g.hostUserId) ?? []), g]);
  const removed: GuestRow[] = [];
  for (const [hostId, mine] of byHost) {
    const member = await ctx.discord.getMember(guildId, hostId);
    const roles = member?.roles ?? null;
    const already = new Set(hostExcessGuests(now, roles, mine).map((g) => g.id));
    removed.push(...hostExcessGuests(next, roles, mine).filter((g) => !already.has(g.id)));
  }
  return { removed, records };
}

/** The preview, in the shape of the sync's change preview (one effect per guest role). */
export async function previewGuestRoleChange(ctx: AppContext, guildId: string, change: GuestRoleChange) {
  const { removed, records } = await guestsRemovedBy(ctx, guildId, change);
  const gone = new Set(removed.map((g) => g.id));
  // A person another remaining record gives the same role keeps it (as `takeGuestRoles` does).
  const keepsRole = (g: GuestRow) =>
    records.some(
      (o) => !gone.has(o.id) && o.guestDiscordId === g.guestDiscordId && o.guestRoleId === g.guestRoleId,
    );
  const guild = await ctx.discord.getGuild(guildId);
  const roleName = (id: string) => guild?.roles.find((r) => r.id === id)?.name ?? id;
  const perRole = new Map<string, string[]>();
  const withoutDiscord: string[] = [];
  for (const g of removed) {
    if (!g.guestDiscordId) withoutDiscord.push(g.guestVrcName ?? g.guestVrcId ?? '');
    else if (!keepsRole(g))
      perRole.set(g.guestRoleId, [
        ...(perRole.get(g.guestRoleId) ?? []),
        g.guestUsername ?? g.guestDiscordId,
      ]);
  }
  const effects = [...perRole].map(([roleId, names]) => ({
    kind: 'discordRole' as const,
    roleName: roleName(roleId) as string | null,
    sentence: `${roleName(roleId)} will be taken from ${count(names.length, 'guest', 'guests')}.`,
    given: [],
    taken: names.sort(byName),
  }));
  if (withoutDiscord.length > 0)
    effects.push({
      kind: 'discordRole',
      roleName: null,
      sentence: `${count(withoutDiscord.length, 'VRChat-only guest', 'VRChat-only guests')} will lose their guest slot.`,
      given: [],
      taken: withoutDiscord.sort(byName),
    });
  return { effects, total: removed.length, warnings: [], wouldHold: 0, complete: true };
}
