import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { loginTokens } from '../../../db/schema/index.js';
import { randomToken, sha256 } from '../../../kernel/crypto.js';
import type { DiscordIdentity } from '../../../platforms/discord/oauth.js';

export const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000;

/** Issued by the bot's /login command: a link that signs its Discord user in without OAuth. */
export async function issueLoginToken(db: Db, identity: DiscordIdentity): Promise<string> {
  const token = randomToken();
  await db.insert(loginTokens).values({
    tokenHash: sha256(token),
    userId: identity.id,
    username: identity.username,
    avatar: identity.avatar,
    expiresAt: new Date(Date.now() + LOGIN_TOKEN_TTL_MS),
  });
  return token;
}

/** Whose token it is, without using it up (the page asks before signing in); null when unknown, used or expired. */
export async function peekLoginToken(db: Db, token: string): Promise<DiscordIdentity | null> {
  const rows = await db
    .select()
    .from(loginTokens)
    .where(
      and(
        eq(loginTokens.tokenHash, sha256(token)),
        isNull(loginTokens.usedAt),
        gt(loginTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  const row = rows[0];
  return row ? { id: row.userId, username: row.username, avatar: row.avatar, globalName: null } : null;
}

/** Marks the token used and answers whose it was; null when unknown, used or expired. */
export async function redeemLoginToken(db: Db, token: string): Promise<DiscordIdentity | null> {
  const rows = await db
    .update(loginTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(loginTokens.tokenHash, sha256(token)),
        isNull(loginTokens.usedAt),
        gt(loginTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  const row = rows[0];
  return row ? { id: row.userId, username: row.username, avatar: row.avatar, globalName: null } : null;
}

const MINUTES = LOGIN_TOKEN_TTL_MS / 60_000;
export const LOGIN_LINK_USED = 'This login link was already used: each link signs in only once.';
export const LOGIN_LINK_EXPIRED = `This login link expired: links work for ${MINUTES} minutes.`;
export const LOGIN_LINK_UNKNOWN = `This login link is not valid: links work once, for ${MINUTES} minutes.`;

/** Why a token cannot sign in, as the sentence the login page shows (an expired one is purged within the hour). */
export async function invalidLoginLinkMessage(db: Db, token: string): Promise<string> {
  const [row] = await db
    .select({ usedAt: loginTokens.usedAt })
    .from(loginTokens)
    .where(eq(loginTokens.tokenHash, sha256(token)))
    .limit(1);
  if (!row) return LOGIN_LINK_UNKNOWN;
  return row.usedAt ? LOGIN_LINK_USED : LOGIN_LINK_EXPIRED;
}
