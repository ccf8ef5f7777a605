import { and, eq } from 'drizzle-orm';
import { guildPermissions } from '../../../db/schema/index.js';
import { type Actor, isSystemActor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing, refused } from '../../../kernel/errors.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';
import { findApiKeyById } from '../api-keys/api-key-lookup.js';
import { expandPermissions, type GuildPermission, isDiscordManager } from './guild-permissions.js';

export const BOT_NOT_IN_GUILD = 'The bot is not in this server.';
export const NOT_A_MEMBER = 'You are not a member of this server.';
export const KEY_NOT_FOR_GUILD = 'This API key is not valid for this server.';

export interface GuildAccess {
  guild: DiscordGuildInfo;
  /** Effective permissions (implied ones included); empty when the caller has none. */
  permissions: GuildPermission[];
}

/**
 * What the caller may do in a server: Admin for Discord's owner and server managers, plus the grants
 * stored here. Someone who left the server keeps nothing, whatever was granted.
 */
export async function guildAccess(ctx: AppContext, actor: Actor, guildId: string): Promise<GuildAccess> {
  if (actor.kind === 'apiKey') return apiKeyAccess(ctx, actor.keyId, guildId);
  if (isSystemActor(actor)) return systemAccess(ctx, guildId);
  const { userId } = actor;
  const guild = await ctx.discord.getGuild(guildId);
  if (!guild) throw missing(BOT_NOT_IN_GUILD);
  const member = await ctx.discord.getMember(guildId, userId);
  if (!member) throw refused(NOT_A_MEMBER);
  const [grant] = await ctx.db
    .select({ permissions: guildPermissions.permissions })
    .from(guildPermissions)
    .where(and(eq(guildPermissions.guildId, guildId), eq(guildPermissions.userId, userId)));
  const granted = [...(grant?.permissions ?? []), ...(isDiscordManager(guild, member) ? ['Admin'] : [])];
  return { guild, permissions: expandPermissions(granted) };
}

/** An API key acts only in the server it was made for, with only the permissions it was given. */
async function apiKeyAccess(ctx: AppContext, keyId: string, guildId: string): Promise<GuildAccess> {
  const key = await findApiKeyById(ctx.db, keyId);
  if (!key || key.guildId !== guildId) throw refused(KEY_NOT_FOR_GUILD);
  const guild = await ctx.discord.getGuild(guildId);
  if (!guild) throw missing(BOT_NOT_IN_GUILD);
  return { guild, permissions: expandPermissions(key.permissions.filter((p) => p !== 'Admin')) };
}

/**
 * The bot and jobs act for the product in every server the bot is in: an explicit bypass of the per-user
 * checks (what they do is audit-logged with them as the actor).
 */
async function systemAccess(ctx: AppContext, guildId: string): Promise<GuildAccess> {
  const guild = await ctx.discord.getGuild(guildId);
  if (!guild) throw missing(BOT_NOT_IN_GUILD);
  return { guild, permissions: expandPermissions(['Admin']) };
}

/** The one check every server-scoped service starts with: 403 naming the missing permission. */
export async function requireGuildPermission(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  needed: GuildPermission,
): Promise<GuildAccess> {
  const access = await guildAccess(ctx, actor, guildId);
  if (!access.permissions.includes(needed))
    throw refused(`You need the ${needed} permission in this server.`);
  return access;
}
