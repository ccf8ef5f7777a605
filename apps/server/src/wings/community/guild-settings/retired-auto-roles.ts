/**
 * An auto role changed away from (or cleared) stays on the members the old setting gave it to unless the bot
 * takes it back. The save records it (`guild_settings.retired_auto_roles`) when the manager chose to take it
 * back; the next sync turns it into grants to take back (each holder the old setting covered) and clears it.
 */
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guildSettings, type RetiredAutoRole } from '../../../db/schema/index.js';
import type { AutoAssignRoles } from './guild-settings.schemas.js';

export type { RetiredAutoRole };

/** What each auto-role setting is, as the sync names its rule. */
export const autoRoleRules = {
  linkedRoleId: 'LinkedRole',
  ageVerifiedPlus18RoleId: 'Plus18Role',
  ageVerifiedRoleId: 'AgeVerifiedRole',
} as const satisfies Record<keyof AutoAssignRoles, RetiredAutoRole['rule']>;

/** The roles a change stops managing: set before, something else after, and no other setting's now. */
export function rolesLeftBy(before: AutoAssignRoles, after: AutoAssignRoles): Omit<RetiredAutoRole, 'at'>[] {
  const still = new Set(Object.values(after));
  return (Object.keys(autoRoleRules) as (keyof AutoAssignRoles)[]).flatMap((key) => {
    const roleId = before[key];
    return roleId && roleId !== after[key] && !still.has(roleId)
      ? [{ roleId, rule: autoRoleRules[key] }]
      : [];
  });
}

/** The entries kept after a save: the new ones added, and none for a role an auto setting manages again. */
export function nextRetired(
  stored: readonly RetiredAutoRole[],
  added: readonly RetiredAutoRole[],
  after: AutoAssignRoles,
): RetiredAutoRole[] {
  const managed = new Set(Object.values(after));
  return [...stored, ...added].filter((r) => !managed.has(r.roleId));
}

/** Clears the entries a sync has taken over (each by its role and time, so one saved meanwhile stays). */
export async function clearRetiredAutoRoles(
  db: Queryable,
  guildId: string,
  done: readonly RetiredAutoRole[],
): Promise<void> {
  const [row] = await db
    .select({ retired: guildSettings.retiredAutoRoles })
    .from(guildSettings)
    .where(eq(guildSettings.guildId, guildId))
    .for('update');
  if (!row) return;
  const left = row.retired.filter((r) => !done.some((d) => d.roleId === r.roleId && d.at === r.at));
  await db.update(guildSettings).set({ retiredAutoRoles: left }).where(eq(guildSettings.guildId, guildId));
}
