/**
 * What the removal circuit breaker holds, remembered per removal (`sync_held_removals`): a removal a manager
 * was asked about stays held until a manager applies it or the rules stop asking for it (see sync-breaker.ts).
 */
import { and, asc, count, eq, inArray, isNull, min, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../../db/client.js';
import { syncHeldRemovals } from '../../../db/schema/index.js';
import { type Actor, actorId, botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { HeldDecision } from './sync-breaker.js';

type HeldRow = typeof syncHeldRemovals.$inferSelect;
export type NewHeldRemoval = Omit<typeof syncHeldRemovals.$inferInsert, 'guildId' | 'heldAt'>;

/** "Glimmer" for a group removal, "Glimmer (Event Host)" for a role taken. */
export const heldName = (h: { targetName: string; roleName: string | null }) =>
  h.roleName ? `${h.targetName} (${h.roleName})` : h.targetName;

/** The held removals of a server, by key, with their decision (null: awaiting one). */
export async function rememberedHolds(db: Queryable, guildId: string): Promise<Map<string, HeldDecision>> {
  const rows = await db
    .select({ key: syncHeldRemovals.key, decision: syncHeldRemovals.decision })
    .from(syncHeldRemovals)
    .where(eq(syncHeldRemovals.guildId, guildId));
  return new Map(rows.map((r) => [r.key, r.decision]));
}

/**
 * After a sync planned: remembers the removals it held for the first time (audited), and forgets those the rules
 * no longer ask for (carried out, or their cause went away: audited when a manager had not approved them).
 */
export async function updateHolds(
  db: Db,
  guildId: string,
  change: {
    fresh: NewHeldRemoval[];
    released: string[];
    remembered: ReadonlyMap<string, HeldDecision>;
    groupSize: number;
    heldWithThem: number;
  },
): Promise<void> {
  const { fresh, released, remembered } = change;
  if (fresh.length === 0 && released.length === 0) return;
  await db.transaction(async (tx) => {
    if (released.length > 0) {
      const gone = await tx
        .delete(syncHeldRemovals)
        .where(and(eq(syncHeldRemovals.guildId, guildId), inArray(syncHeldRemovals.key, released)))
        .returning();
      const undecided = gone.filter((r) => remembered.get(r.key) !== 'apply');
      if (undecided.length > 0)
        await audit(tx, {
          action: 'sync.removals_released',
          actor: botActor,
          guildId,
          details: { count: undecided.length, names: undecided.slice(0, 25).map(heldName) },
        });
    }
    if (fresh.length > 0) {
      await tx
        .insert(syncHeldRemovals)
        .values(fresh.map((h) => ({ ...h, guildId })))
        .onConflictDoNothing();
      await audit(tx, {
        action: 'sync.removals_held',
        actor: botActor,
        guildId,
        details: {
          count: fresh.length,
          groupSize: change.groupSize,
          // Steps held with the removals because they follow from them.
          heldWithThem: change.heldWithThem,
          names: fresh
            .slice(0, 25)
            .map((h) => heldName({ targetName: h.targetName, roleName: h.roleName ?? null })),
        },
      });
    }
  });
}

const awaiting = (guildId: string) =>
  and(eq(syncHeldRemovals.guildId, guildId), isNull(syncHeldRemovals.decision));

/** How many removals await a decision and since when, and how many a manager declined (kept). */
export async function heldSummary(db: Queryable, guildId: string) {
  const rows = await db
    .select({
      kept: sql<boolean>`${syncHeldRemovals.decision} = 'keep'`,
      count: count(),
      since: min(syncHeldRemovals.heldAt),
    })
    .from(syncHeldRemovals)
    .where(
      and(eq(syncHeldRemovals.guildId, guildId), sql`${syncHeldRemovals.decision} is distinct from 'apply'`),
    )
    .groupBy(sql`1`);
  const open = rows.find((r) => !r.kept);
  return {
    count: Number(open?.count ?? 0),
    heldAt: open?.since ?? null,
    kept: Number(rows.find((r) => r.kept)?.count ?? 0),
  };
}

/** The keys of the removals awaiting a decision (what 'Apply removals' approves). */
export async function awaitingKeys(db: Queryable, guildId: string): Promise<string[]> {
  const rows = await db.select({ key: syncHeldRemovals.key }).from(syncHeldRemovals).where(awaiting(guildId));
  return rows.map((r) => r.key);
}

/** One page of the removals awaiting a decision, oldest first (then by name). */
export async function heldPage(db: Queryable, guildId: string, offset: number, limit: number) {
  const rows = await db
    .select()
    .from(syncHeldRemovals)
    .where(awaiting(guildId))
    .orderBy(asc(syncHeldRemovals.heldAt), asc(syncHeldRemovals.targetName), asc(syncHeldRemovals.key))
    .limit(limit)
    .offset(offset);
  return rows.map(heldView);
}

/** What the tabs show of a held removal. */
export function heldView(h: HeldRow) {
  return {
    kind: h.kind,
    targetName: h.targetName,
    discordUserId: h.discordUserId,
    vrcUserId: h.vrcUserId,
    roleName: h.roleName,
    reason: h.reason,
  };
}

/**
 * Brings the removals a manager declined (Discard) back for a decision: they are listed again and Apply can carry
 * them out. Audited; returns how many came back.
 */
export async function reopenHolds(db: Db, guildId: string, actor: Actor): Promise<number> {
  return db.transaction(async (tx) => {
    const reopened = await tx
      .update(syncHeldRemovals)
      .set({ decision: null, decidedAt: new Date(), decidedBy: actorId(actor) })
      .where(and(eq(syncHeldRemovals.guildId, guildId), eq(syncHeldRemovals.decision, 'keep')))
      .returning();
    if (reopened.length > 0)
      await audit(tx, {
        action: 'sync.removals_reviewed',
        actor,
        guildId,
        details: { count: reopened.length, names: reopened.slice(0, 25).map(heldName) },
      });
    return reopened.length;
  });
}

/**
 * A manager's decision on every removal awaiting one: 'apply' (the next sync carries them out, re-checked against
 * the platforms) or 'keep' (declined: they stay held, never applied, until the rules stop asking for them).
 * Audited with the decision; returns the keys decided.
 */
export async function decideHolds(db: Db, guildId: string, actor: Actor, decision: 'apply' | 'keep') {
  return db.transaction(async (tx) => {
    const decided = await tx
      .update(syncHeldRemovals)
      .set({ decision, decidedAt: new Date(), decidedBy: actorId(actor) })
      .where(awaiting(guildId))
      .returning();
    if (decided.length > 0)
      await audit(tx, {
        action: decision === 'apply' ? 'sync.removals_approved' : 'sync.removals_discarded',
        actor,
        guildId,
        details: { count: decided.length, names: decided.slice(0, 25).map(heldName) },
      });
    return decided.map((r) => r.key);
  });
}
