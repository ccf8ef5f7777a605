import { and, asc, eq } from 'drizzle-orm';
import { guildPermissions } from '../../../db/schema/index.js';
import { type Actor, actorId, botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid, missing } from '../../../kernel/errors.js';
import { deleteAudited } from '../../../kernel/rows.js';
import { membersWithAnyRole } from '../members/member-mirror.reads.js';
import { requireGuildPermission } from './access.service.js';
import {
  type DiscordManagerReason,
  discordManagerReason,
  discordManagerRoleIds,
  expandPermissions,
  type GuildPermission,
} from './guild-permissions.js';

export const NO_PERMISSION_SELECTED = 'Select at least one permission.';
export const TARGET_NOT_A_MEMBER = 'That user is not a member of this server.';
export const NO_PERMISSION_ENTRY = 'That user has no permission entry in this server.';

const entriesOf = (ctx: AppContext, guildId: string) =>
  ctx.db
    .select()
    .from(guildPermissions)
    .where(eq(guildPermissions.guildId, guildId))
    .orderBy(asc(guildPermissions.updatedAt), asc(guildPermissions.userId));

/**
 * The granted entries of a server, with each user's Discord name and avatar (null once they left), then
 * the implicit admins Discord makes (the owner, holders of Administrator or Manage Server roles) who have
 * no entry, as read-only rows (`implicit`). `reason` says why Discord makes a user Admin, on any row.
 */
export async function listPermissions(ctx: AppContext, actor: Actor, guildId: string) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const entries = await entriesOf(ctx, guildId);
  const holders = await membersWithAnyRole(ctx, guildId, discordManagerRoleIds(guild));
  const reasons = new Map<string, DiscordManagerReason>([[guild.ownerId, 'Server owner']]);
  for (const h of holders) {
    const reason = discordManagerReason(guild, { userId: h.userId, roles: h.roleIds });
    if (reason && !reasons.has(h.userId)) reasons.set(h.userId, reason);
  }
  const granted = new Set(entries.map((e) => e.userId));
  const rows = [
    ...entries.map((e) => ({
      userId: e.userId,
      permissions: e.permissions as GuildPermission[],
      implicit: false,
    })),
    ...[...reasons.keys()]
      .filter((userId) => !granted.has(userId))
      .map((userId) => ({ userId, permissions: ['Admin'] as GuildPermission[], implicit: true })),
  ];
  const users = await Promise.all(
    rows.map(async (row) => {
      const member = await ctx.discord.getMember(guildId, row.userId);
      return {
        userId: row.userId,
        username: member?.username ?? null,
        avatar: member?.avatarUrl ?? null,
        permissions: row.permissions,
        implicit: row.implicit,
        reason: member ? (reasons.get(row.userId) ?? null) : null,
      };
    }),
  );
  return { users };
}

const listOf = (permissions: readonly string[]) => (permissions.length ? permissions.join(', ') : 'none');

/** Replaces a user's granted permissions (Admin only; the user must be in the server). */
export async function setPermissions(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  userId: string,
  permissions: GuildPermission[],
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const wanted = [...new Set(permissions)];
  if (wanted.length === 0) throw invalid(NO_PERMISSION_SELECTED);
  const member = await ctx.discord.getMember(guildId, userId);
  if (!member) throw missing(TARGET_NOT_A_MEMBER);
  const targetName = member.displayName || member.username;
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ permissions: guildPermissions.permissions })
      .from(guildPermissions)
      .where(and(eq(guildPermissions.guildId, guildId), eq(guildPermissions.userId, userId)));
    await tx
      .insert(guildPermissions)
      .values({ guildId, userId, permissions: wanted, grantedBy: actorId(actor) })
      .onConflictDoUpdate({
        target: [guildPermissions.guildId, guildPermissions.userId],
        set: { permissions: wanted, grantedBy: actorId(actor), updatedAt: new Date() },
      });
    await audit(tx, {
      action: 'permissions.set',
      actor,
      guildId,
      targetId: userId,
      details: {
        targetName,
        summary: `${targetName}: ${listOf(before?.permissions ?? [])} → ${listOf(wanted)}`,
        before: before?.permissions ?? [],
        after: wanted,
      },
    });
  });
  return { userId, permissions: wanted, effective: expandPermissions(wanted) };
}

export async function deletePermissions(ctx: AppContext, actor: Actor, guildId: string, userId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const removed = await deleteGrant(ctx, guildId, userId, 'permissions.delete', actor);
  if (!removed) throw missing(NO_PERMISSION_ENTRY);
}

/** Deletes a user's grant in a server, audit-logged as `action` with what was held; false without one. */
async function deleteGrant(ctx: AppContext, guildId: string, userId: string, action: string, actor: Actor) {
  const where = and(eq(guildPermissions.guildId, guildId), eq(guildPermissions.userId, userId));
  const removed = await deleteAudited(ctx.db, guildPermissions, where, (row) => ({
    action,
    actor,
    guildId,
    targetId: userId,
    details: { before: row.permissions },
  }));
  return removed !== undefined;
}

/**
 * A member left the server (or was kicked): their grant ends with it, so rejoining gives nothing back
 * silently. The bot acts; the audit entry keeps what was held. Does nothing without a grant.
 */
export async function endGrantOfDepartedMember(
  ctx: AppContext,
  guildId: string,
  userId: string,
  actor: Actor = botActor,
): Promise<boolean> {
  return deleteGrant(ctx, guildId, userId, 'permissions.ended_left_server', actor);
}

/**
 * Catch-up for departures the bot missed while offline: every grant of the server whose holder Discord
 * no longer knows as a member (404, not an error) ends as if the leave had been seen.
 */
export async function endGrantsOfDepartedMembers(ctx: AppContext, guildId: string, actor: Actor = botActor) {
  const entries = await ctx.db
    .select({ userId: guildPermissions.userId })
    .from(guildPermissions)
    .where(eq(guildPermissions.guildId, guildId));
  for (const { userId } of entries) {
    if (!(await ctx.discord.getMember(guildId, userId)))
      await endGrantOfDepartedMember(ctx, guildId, userId, actor);
  }
}
