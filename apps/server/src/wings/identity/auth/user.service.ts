import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { discordTokens, users } from '../../../db/schema/index.js';
import type { AppConfig } from '../../../kernel/config.js';
import { encrypt } from '../../../kernel/crypto.js';
import type { DiscordIdentity, DiscordTokens } from '../../../platforms/discord/oauth.js';
import { sessionsChanged } from './session-cache.js';

export type Rank = 'Admin' | 'User';

export function rankOf(config: AppConfig, userId: string): Rank {
  return config.adminDiscordIds.has(userId) ? 'Admin' : 'User';
}

/** Creates or refreshes the user record from Discord's answer. */
export async function upsertUser(db: Db, identity: DiscordIdentity): Promise<void> {
  await db
    .insert(users)
    .values({
      id: identity.id,
      username: identity.username,
      globalName: identity.globalName,
      avatar: identity.avatar,
    })
    .onConflictDoUpdate({
      target: users.id,
      set: {
        username: identity.username,
        globalName: identity.globalName,
        avatar: identity.avatar,
        // The database's clock, as every other row's time: an account erasure compares it with its request.
        lastLoginAt: sql`now()`,
      },
    });
  // Signed-in requests of this user read the new name and avatar.
  await sessionsChanged(db, `user:${identity.id}`);
}

export async function storeDiscordTokens(
  db: Db,
  key: Buffer,
  userId: string,
  tokens: DiscordTokens,
): Promise<void> {
  const values = {
    accessTokenEnc: encrypt(key, tokens.accessToken),
    refreshTokenEnc: encrypt(key, tokens.refreshToken),
    scope: tokens.scope,
    expiresAt: tokens.expiresAt,
  };
  await db
    .insert(discordTokens)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: discordTokens.userId, set: values });
}

export async function getUser(db: Db, id: string) {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}
