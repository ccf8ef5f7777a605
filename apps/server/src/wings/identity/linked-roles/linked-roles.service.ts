import { type Actor, botActor, jobActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { linkedRolesUpdateJob } from '../../../kernel/job-catalog.js';
import { DiscordGrantError } from '../../../platforms/discord/oauth.js';
import { DiscordRoleConnections } from '../../../platforms/discord/role-connections.js';
import { userAccessToken } from '../auth/discord-tokens.service.js';
import { findLinkByDiscord } from '../links/links.service.js';
import { roleConnectionMetadata, roleConnectionOf, sameMetadata } from './role-connection.js';

export const ROLE_CONNECTIONS_SCOPE = 'role_connections.write';

function roleConnections(ctx: AppContext): DiscordRoleConnections {
  if (!ctx.platforms) throw new Error('Linked Roles need the started Discord adapter');
  return new DiscordRoleConnections(ctx.config.discord, ctx.platforms.bot.rest);
}

/**
 * Registers the application's role-connection metadata (called at the bot's start); a PUT only when
 * Discord holds other records, so restarts cost one GET.
 */
export async function registerRoleConnectionMetadata(ctx: AppContext): Promise<'registered' | 'unchanged'> {
  const api = roleConnections(ctx);
  if (sameMetadata(await api.getMetadata(), roleConnectionMetadata)) return 'unchanged';
  await api.putMetadata(roleConnectionMetadata);
  await audit(ctx.db, {
    action: 'linked_roles.metadata_registered',
    actor: botActor,
    details: { keys: roleConnectionMetadata.map((m) => m.key) },
  });
  return 'registered';
}

export type RoleConnectionOutcome = 'updated' | 'disabled' | 'no-token' | 'no-scope';

/**
 * Writes the user's role connection as their link stands now (VRChat display name, linked, 18+, linked
 * since), through their own OAuth token: refreshed when it expired, and once more when Discord refuses it.
 * Without a token with the scope there is nothing to do until they sign in again.
 */
export async function updateRoleConnection(
  ctx: AppContext,
  userId: string,
  actor: Actor = jobActor(linkedRolesUpdateJob.name),
): Promise<RoleConnectionOutcome> {
  if (!ctx.config.discord.linkedRolesEnabled) return 'disabled';
  let token = await userAccessToken(ctx, userId);
  if (!token) return 'no-token';
  if (!token.scopes.includes(ROLE_CONNECTIONS_SCOPE)) return 'no-scope';
  const link = await findLinkByDiscord(ctx.db, userId);
  const body = roleConnectionOf(link);
  const api = roleConnections(ctx);
  try {
    await api.putConnection(token.accessToken, body);
  } catch (err) {
    if (!(err instanceof DiscordGrantError)) throw err;
    token = await userAccessToken(ctx, userId, { force: true });
    if (!token) return 'no-token';
    await api.putConnection(token.accessToken, body);
  }
  await audit(ctx.db, {
    action: 'linked_roles.updated',
    actor,
    targetId: userId,
    details: { ...body.metadata, platformUsername: body.platform_username ?? null },
  });
  return 'updated';
}

/**
 * Call after committing a link change: each user's role connection follows through a job (retried; never
 * inside a transaction). A change while one runs queues one follow-up, so the last state always lands.
 */
export async function requestRoleConnectionUpdates(
  ctx: AppContext,
  userIds: Iterable<string>,
): Promise<void> {
  if (!ctx.config.discord.linkedRolesEnabled) return;
  for (const userId of userIds) {
    try {
      await ctx.jobs.send(linkedRolesUpdateJob, { userId }, { singletonKey: userId });
    } catch (err) {
      ctx.log.warn({ err, userId }, 'linked roles: update not queued');
    }
  }
}
