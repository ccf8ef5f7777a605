import { and, eq, gt, isNull } from 'drizzle-orm';
import { randomToken, sha256 } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import { loginTokens } from '../../db/schema/index.js';
import type { DiscordIdentity } from '../../platforms/discord/oauth.js';

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
