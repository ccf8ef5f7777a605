import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '../../../db/client.js';
import { guildSettings } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid } from '../../../kernel/errors.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import { isStale, SETTINGS_CHANGED } from '../../../kernel/versions.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';
import { guildMemberCounts, requireGuildPermission } from '../../access/index.js';
import { assignableRoleProblem, roleUnavailable } from './assignable-role.js';
import type { AutoAssignRoles, AutoAssignRolesUpdate, OldRolesChoice } from './guild-settings.schemas.js';
import { nextRetired, rolesLeftBy } from './retired-auto-roles.js';

export const INVALID_EMAIL = 'Please enter a valid email address.';

type SettingsRow = typeof guildSettings.$inferSelect;

const autoAssignKeys = ['ageVerifiedRoleId', 'ageVerifiedPlus18RoleId', 'linkedRoleId'] as const;

/** A server's settings row, if it has one. */
export async function guildSettingsOf(db: Queryable, guildId: string, forUpdate = false) {
  const query = db.select().from(guildSettings).where(eq(guildSettings.guildId, guildId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row as SettingsRow | undefined;
}

/** The auto roles as the Discord tab labels them, for the audit entry's summary. */
const autoAssignLabels: Record<(typeof autoAssignKeys)[number], string> = {
  ageVerifiedRoleId: 'Age Verified Role',
  ageVerifiedPlus18RoleId: '18+ Verified Role',
  linkedRoleId: 'Linked Users Role',
};

/** 'Linked Users Role: Verified → Event Host' for each role that changed ('none' for no role). */
export function autoAssignSummary(guild: DiscordGuildInfo, before: AutoAssignRoles, after: AutoAssignRoles) {
  const name = (id: string | null) =>
    id === null ? 'none' : (guild.roles.find((r) => r.id === id)?.name ?? `deleted role ${id}`);
  return autoAssignKeys
    .filter((key) => before[key] !== after[key])
    .map((key) => `${autoAssignLabels[key]}: ${name(before[key])} → ${name(after[key])}`)
    .join('; ');
}

const autoAssignOf = (row: SettingsRow | undefined): AutoAssignRoles => ({
  ageVerifiedRoleId: row?.ageVerifiedRoleId ?? null,
  ageVerifiedPlus18RoleId: row?.ageVerifiedPlus18RoleId ?? null,
  linkedRoleId: row?.linkedRoleId ?? null,
});

async function describeGuild(ctx: AppContext, guild: DiscordGuildInfo) {
  const [counts, row, bot] = await Promise.all([
    guildMemberCounts(ctx, guild.id),
    guildSettingsOf(ctx.db, guild.id),
    // Only to mark the roles the bot cannot give; without it the tab still loads (managed roles still marked).
    ctx.discord.botMember(guild.id).catch(() => null),
  ]);
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.iconUrl,
    ...counts,
    roles: guild.roles
      .filter((r) => r.id !== guild.id)
      .map((r) => ({
        id: r.id,
        name: r.name,
        color: r.color,
        position: r.position,
        unavailable: roleUnavailable(guild, bot?.roles ?? null, r),
      })),
    autoAssignRoles: autoAssignOf(row),
    version: row?.version ?? 0,
    contactEmail: row?.contactEmail ?? null,
  };
}

/** The Discord tab: the server, its counts and roles, and its settings. */
export async function getGuildSettings(ctx: AppContext, actor: Actor, guildId: string) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  return describeGuild(ctx, guild);
}

/** Throws 400 naming the first role the bot could not give; roles already saved are not checked again. */
async function checkAutoAssign(
  ctx: AppContext,
  guild: DiscordGuildInfo,
  before: AutoAssignRoles,
  change: AutoAssignRolesUpdate,
) {
  const chosen = autoAssignKeys
    .map((key) => change[key])
    .filter((id, i): id is string => typeof id === 'string' && id !== before[autoAssignKeys[i]]);
  if (chosen.length === 0) return;
  const bot = await ctx.discord.botMember(guild.id);
  for (const id of chosen) {
    const problem = assignableRoleProblem(guild, bot?.roles ?? [], id);
    if (problem) throw invalid(problem);
  }
}

/**
 * Sets or clears the roles the bot assigns (18+ verified, age verified, linked); Admin only. A role the change
 * stops managing is taken back from the members its setting gave it to (`oldRoles` 'take', the default: the
 * next sync does it) or left on them ('keep'); the audit entry says which.
 */
export async function updateAutoAssignRoles(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: AutoAssignRolesUpdate,
  /** The version the settings were read at; a save over another manager's answers 409. */
  readVersion?: number,
  oldRoles: OldRolesChoice = 'take',
) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  await checkAutoAssign(ctx, guild, autoAssignOf(await guildSettingsOf(ctx.db, guildId)), change);
  await ctx.db.transaction(async (tx) => {
    const row = await guildSettingsOf(tx, guildId, true);
    if (isStale(readVersion, row?.version ?? 0)) throw conflict(SETTINGS_CHANGED);
    // Merged onto the row as it is now, so a simultaneous change of another role is kept.
    const before = autoAssignOf(row);
    const after = { ...before, ...change };
    const version = (row?.version ?? 0) + 1;
    const left = rolesLeftBy(before, after);
    const at = new Date().toISOString();
    const retiredAutoRoles = nextRetired(
      row?.retiredAutoRoles ?? [],
      oldRoles === 'take' ? left.map((r) => ({ ...r, at })) : [],
      after,
    );
    await tx
      .insert(guildSettings)
      .values({ guildId, ...after, retiredAutoRoles, version })
      .onConflictDoUpdate({
        target: guildSettings.guildId,
        set: { ...after, retiredAutoRoles, version, updatedAt: new Date() },
      });
    const roleName = (id: string) => guild.roles.find((r) => r.id === id)?.name ?? `deleted role ${id}`;
    const oldSummary = left
      .map((r) => `${roleName(r.roleId)} ${oldRoles === 'take' ? 'taken back from' : 'kept on'} its holders`)
      .join('; ');
    const summary = [autoAssignSummary(guild, before, after) || 'No role changed', oldSummary]
      .filter(Boolean)
      .join('; ');
    await audit(tx, {
      action: 'guild.auto_assign_roles',
      actor,
      guildId,
      details: {
        summary,
        before,
        after,
        ...(left.length > 0 ? { oldRoles, oldRoleIds: left.map((r) => r.roleId) } : {}),
      },
    });
  });
  await requestGuildSync(ctx, guildId, 'settings');
  return describeGuild(ctx, guild);
}

/** Stores the contact e-mail World Images requires; ManageImages (Admin implies it). */
export async function setContactEmail(ctx: AppContext, actor: Actor, guildId: string, email: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  const parsed = z.email().safeParse(email.trim());
  if (!parsed.success) throw invalid(INVALID_EMAIL);
  const contactEmail = parsed.data;
  await ctx.db.transaction(async (tx) => {
    const before = (await guildSettingsOf(tx, guildId, true))?.contactEmail ?? null;
    await tx
      .insert(guildSettings)
      .values({ guildId, contactEmail })
      .onConflictDoUpdate({ target: guildSettings.guildId, set: { contactEmail, updatedAt: new Date() } });
    await audit(tx, {
      action: 'guild.contact_email',
      actor,
      guildId,
      details: { before, after: contactEmail },
    });
  });
  return { contactEmail };
}
