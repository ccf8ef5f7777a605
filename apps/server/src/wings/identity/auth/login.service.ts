import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid } from '../../../kernel/errors.js';
import { DiscordGrantError, type DiscordIdentity } from '../../../platforms/discord/oauth.js';
import { requestRoleConnectionUpdates } from '../linked-roles/linked-roles.service.js';
import type { CurrentUser } from './auth.schemas.js';
import { invalidLoginLinkMessage, redeemLoginToken } from './login-token.service.js';
import { createSession, deleteUserSessions, type UserRow } from './session.service.js';
import { rankOf, storeDiscordTokens, upsertUser } from './user.service.js';

/**
 * The login use cases behind the auth routes: Discord's OAuth code or the bot's one-time token starts a web
 * session (the routes set the cookie), logout ends every session. Each is audit-logged.
 */

export function toCurrentUser(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'username' | 'avatar'>,
): CurrentUser {
  return {
    id: user.id,
    username: user.username,
    avatar: ctx.discordOAuth.avatarUrl(user.id, user.avatar),
    rank: rankOf(ctx.config, user.id),
  };
}

/** A new web session: its token (for the cookie) and who signed in. */
export interface StartedSession {
  token: string;
  user: CurrentUser;
}

async function startSession(
  ctx: AppContext,
  identity: DiscordIdentity,
  via: string,
): Promise<StartedSession> {
  await upsertUser(ctx.db, identity);
  const token = await createSession(ctx.db, identity.id, 'web');
  await audit(ctx.db, {
    action: 'user.login',
    actor: userActor(identity.id),
    targetId: identity.id,
    details: { via },
  });
  return { token, user: toCurrentUser(ctx, identity) };
}

/** The Discord authorize address for a login; `askConsent` after a logout, so Discord offers another account. */
export function loginRedirect(
  ctx: AppContext,
  state: string,
  redirectUri: string,
  askConsent: boolean,
): string {
  const scopes = ['identify', 'guilds'];
  if (ctx.config.discord.linkedRolesEnabled) scopes.push('role_connections.write');
  return ctx.discordOAuth.authorizeUrl({ state, scopes, redirectUri, askConsent });
}

/**
 * Signs in with Discord's OAuth code: a session, the user's Discord tokens kept, and their role connection
 * brought up to date. `rejected` when Discord does not accept the code.
 */
export async function loginWithCode(
  ctx: AppContext,
  code: string,
  redirectUri: string,
): Promise<StartedSession | 'rejected'> {
  let tokens: Awaited<ReturnType<typeof ctx.discordOAuth.exchangeCode>>;
  try {
    tokens = await ctx.discordOAuth.exchangeCode(code, redirectUri);
  } catch (err) {
    if (err instanceof DiscordGrantError) return 'rejected';
    throw err;
  }
  const identity = await ctx.discordOAuth.fetchIdentity(tokens.accessToken);
  const started = await startSession(ctx, identity, 'oauth');
  await storeDiscordTokens(ctx.db, ctx.config.secretKey, identity.id, tokens);
  // A link made before this token (or before Linked Roles were on) gets its role connection now.
  await requestRoleConnectionUpdates(ctx, [identity.id]);
  return started;
}

/** Signs in with a one-time token from the bot's /login command; refuses a used, expired or unknown one. */
export async function loginWithToken(ctx: AppContext, token: string): Promise<StartedSession> {
  const identity = await redeemLoginToken(ctx.db, token);
  if (!identity) throw invalid(await invalidLoginLinkMessage(ctx.db, token));
  return startSession(ctx, identity, 'token');
}

/** Ends every session of the user (SDK access tokens too). */
export async function logout(ctx: AppContext, userId: string): Promise<void> {
  await deleteUserSessions(ctx.db, userId, { keepDiscordTokens: ctx.config.discord.linkedRolesEnabled });
  await audit(ctx.db, { action: 'user.logout', actor: userActor(userId), targetId: userId });
}
