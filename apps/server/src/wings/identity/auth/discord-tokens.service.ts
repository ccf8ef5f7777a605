import { and, eq } from 'drizzle-orm';
import { discordTokens } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { decryptWithAny } from '../../../kernel/crypto.js';
import { DiscordGrantError } from '../../../platforms/discord/oauth.js';
import { storeDiscordTokens } from './user.service.js';

/** A token this close to its expiry is refreshed first, so it cannot expire on the way to Discord. */
const REFRESH_MARGIN_MS = 60_000;

export interface UserAccessToken {
  accessToken: string;
  scopes: string[];
}

async function storedTokens(ctx: AppContext, userId: string) {
  const [row] = await ctx.db.select().from(discordTokens).where(eq(discordTokens.userId, userId));
  return row ?? null;
}

/**
 * The user's Discord OAuth access token, refreshed (and the new pair stored) when it expired or `force`
 * says Discord refused it. Null when none is kept, or when Discord refuses the refresh (the user revoked
 * the app): the dead pair is forgotten, and the next sign-in stores a new one.
 */
export async function userAccessToken(
  ctx: AppContext,
  userId: string,
  opts: { force?: boolean } = {},
): Promise<UserAccessToken | null> {
  const row = await storedTokens(ctx, userId);
  if (!row) return null;
  const key = ctx.config.secretKey;
  // Sealed under the current key, the access token is used as it is; under SECRET_KEY_PREVIOUS (a rotation),
  // the pair is refreshed and stored again under the current key.
  const current = decryptWithAny([key], row.accessTokenEnc);
  if (current !== null && !opts.force && row.expiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS)
    return { accessToken: current, scopes: row.scope.split(' ') };
  const refreshToken = decryptWithAny([key, ctx.config.previousSecretKey], row.refreshTokenEnc);
  if (refreshToken === null) {
    ctx.log.warn({ userId }, 'A stored Discord token was sealed with another SECRET_KEY; forgetting it');
    await ctx.db.delete(discordTokens).where(eq(discordTokens.userId, userId));
    return null;
  }
  try {
    const tokens = await ctx.discordOAuth.refresh(refreshToken);
    await storeDiscordTokens(ctx.db, key, userId, tokens);
    return { accessToken: tokens.accessToken, scopes: tokens.scope.split(' ') };
  } catch (err) {
    if (!(err instanceof DiscordGrantError)) throw err;
    // Another request may have refreshed the same pair a moment before (a job beside a page): Discord then
    // refuses the old refresh token, and the pair it stored is good. Forget the pair only if it is still the
    // one refused; otherwise use the new one.
    const forgotten = await ctx.db
      .delete(discordTokens)
      .where(and(eq(discordTokens.userId, userId), eq(discordTokens.refreshTokenEnc, row.refreshTokenEnc)))
      .returning({ userId: discordTokens.userId });
    if (forgotten.length > 0) {
      ctx.log.info({ userId }, 'Discord refused to refresh a user token; forgetting it');
      return null;
    }
    const fresh = await storedTokens(ctx, userId);
    const accessToken = fresh && decryptWithAny([key], fresh.accessTokenEnc);
    return fresh && accessToken ? { accessToken, scopes: fresh.scope.split(' ') } : null;
  }
}
