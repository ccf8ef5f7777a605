import { and, eq, or } from 'drizzle-orm';
import type { Db, Queryable } from '../../../db/client.js';
import { syncTemporaryGrants } from '../../../db/schema/index.js';
import { clearRetiredAutoRoles } from '../../community/index.js';
import { retiredRoleGrants } from './auto-role-rules.js';
import type { Observation } from './sync-observe.js';
import type { SyncAction, SyncPlanInput, SyncReason, TemporaryGrant } from './sync-plan.js';

/** The temporary grants the bot made in this server (the planner ends each once its cause is gone). */
export async function readTemporaryGrants(db: Queryable, guildId: string): Promise<TemporaryGrant[]> {
  const rows = await db.select().from(syncTemporaryGrants).where(eq(syncTemporaryGrants.guildId, guildId));
  return rows.map((r) => {
    const reason = r.reason === 'GrantRoleTemporary' ? {} : { reason: r.reason as SyncReason };
    return r.kind === 'discordRole'
      ? { kind: 'discordRole', discordUserId: r.targetId, roleId: r.roleId, ...reason }
      : { kind: 'groupRole', vrcUserId: r.targetId, roleId: r.roleId, ...reason };
  });
}

/**
 * A sync takes over the auto roles changed away from: each holder the old setting covered is recorded as a grant
 * to take back (with that setting's rule as its reason), and the entries are cleared, in one transaction.
 */
export async function adoptRetiredAutoRoles(db: Db, guildId: string, obs: Observation): Promise<void> {
  if (obs.retiredAutoRoles.length === 0) return;
  const grants = retiredRoleGrants(obs.input.members, obs.retiredAutoRoles);
  await db.transaction(async (tx) => {
    if (grants.length > 0)
      await tx
        .insert(syncTemporaryGrants)
        .values(
          grants.map((g) => ({
            guildId,
            kind: 'discordRole' as const,
            targetId: g.kind === 'discordRole' ? g.discordUserId : g.vrcUserId,
            roleId: g.roleId,
            reason: g.reason ?? 'GrantRoleTemporary',
          })),
        )
        .onConflictDoNothing();
    await clearRetiredAutoRoles(tx, guildId, obs.retiredAutoRoles);
  });
}

/** Whether the bot holds a record of a temporary group role it gave in this server. */
export async function hasTemporaryGroupRoles(db: Queryable, guildId: string): Promise<boolean> {
  const rows = await db
    .select({ guildId: syncTemporaryGrants.guildId })
    .from(syncTemporaryGrants)
    .where(and(eq(syncTemporaryGrants.guildId, guildId), eq(syncTemporaryGrants.kind, 'groupRole')))
    .limit(1);
  return rows.length > 0;
}

/** Keeps the records in step with a write that landed (inside its transaction). */
export async function recordGrantChange(db: Queryable, guildId: string, a: SyncAction): Promise<void> {
  const of = (kind: TemporaryGrant['kind'], targetId: string) =>
    and(
      eq(syncTemporaryGrants.guildId, guildId),
      eq(syncTemporaryGrants.kind, kind),
      eq(syncTemporaryGrants.targetId, targetId),
    );
  switch (a.kind) {
    case 'addDiscordRole':
    case 'addGroupRole':
      if (a.reason !== 'GrantRoleTemporary') return;
      await db
        .insert(syncTemporaryGrants)
        .values({
          guildId,
          kind: a.kind === 'addDiscordRole' ? 'discordRole' : 'groupRole',
          targetId: a.kind === 'addDiscordRole' ? a.discordUserId : a.vrcUserId,
          roleId: a.roleId,
        })
        .onConflictDoNothing();
      return;
    case 'removeDiscordRole':
      await db
        .delete(syncTemporaryGrants)
        .where(and(of('discordRole', a.discordUserId), eq(syncTemporaryGrants.roleId, a.roleId)));
      return;
    case 'removeGroupRole':
      await db
        .delete(syncTemporaryGrants)
        .where(and(of('groupRole', a.vrcUserId), eq(syncTemporaryGrants.roleId, a.roleId)));
      return;
    case 'remove':
      await db.delete(syncTemporaryGrants).where(of('groupRole', a.vrcUserId));
      return;
  }
}

/**
 * Drops the records of roles the platforms show as no longer held (taken by hand): the bot must not later take
 * the same role given again by someone else. Members absent from what was observed keep their records.
 */
export async function dropStaleGrants(db: Queryable, guildId: string, input: SyncPlanInput): Promise<void> {
  const roles = new Map(input.members.map((m) => [m.discordUserId, m.roleIds]));
  const stale = (input.temporaryGrants ?? []).filter((g) =>
    g.kind === 'discordRole'
      ? roles.has(g.discordUserId) && !roles.get(g.discordUserId)!.includes(g.roleId)
      : !!input.group?.members.has(g.vrcUserId) && !input.group.members.get(g.vrcUserId)!.includes(g.roleId),
  );
  if (stale.length === 0) return;
  await db
    .delete(syncTemporaryGrants)
    .where(
      and(
        eq(syncTemporaryGrants.guildId, guildId),
        or(
          ...stale.map((g) =>
            and(
              eq(syncTemporaryGrants.kind, g.kind),
              eq(syncTemporaryGrants.targetId, g.kind === 'discordRole' ? g.discordUserId : g.vrcUserId),
              eq(syncTemporaryGrants.roleId, g.roleId),
            ),
          ),
        ),
      ),
    );
}
