import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { discordTokens, sessions, users } from '../../../db/schema/index.js';
import type { ActiveSession, SessionKind, UserRow } from '../../../kernel/actor.js';
import { randomToken, sha256 } from '../../../kernel/crypto.js';
import { notifySessions, sessionCacheOf, sessionsChanged } from './session-cache.js';

/** Privacy policy: most personal data is kept up to 72 hours or until logout. */
export const SESSION_TTL_MS = 72 * 60 * 60 * 1000;

export type { ActiveSession, SessionKind, UserRow };

export async function createSession(db: Db, userId: string, kind: SessionKind): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    idHash: sha256(token),
    userId,
    kind,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return token;
}

/**
 * The signed-in caller of a token: from the session cache (session-cache.ts) at once, else a promise of the
 * database's answer. The caller may hand in the token's hash when it has one (auth.ts hashes a cookie once).
 */
export function findSession(
  db: Db,
  token: string,
  tokenHash = sha256(token),
): ActiveSession | null | Promise<ActiveSession | null> {
  const cache = sessionCacheOf(db);
  return cache.get(tokenHash) ?? readSession(db, cache, tokenHash);
}

async function readSession(
  db: Db,
  cache: ReturnType<typeof sessionCacheOf>,
  tokenHash: string,
): Promise<ActiveSession | null> {
  const startedAt = cache.begin();
  const rows = await db
    .select({ user: users, kind: sessions.kind, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, tokenHash), gt(sessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const session: ActiveSession = { user: row.user, kind: row.kind, tokenHash };
  cache.set(session, row.expiresAt, startedAt);
  return session;
}

export async function deleteSessionByHash(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, tokenHash));
  await sessionsChanged(db, `token:${tokenHash}`);
}

/**
 * Logging out of the website also revokes the SDK tokens the user approved, and forgets the user's Discord
 * OAuth tokens unless linked roles need them (privacy policy: until logout).
 */
export async function deleteUserSessions(
  db: Db,
  userId: string,
  opts: { keepDiscordTokens: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    if (!opts.keepDiscordTokens) await tx.delete(discordTokens).where(eq(discordTokens.userId, userId));
    await notifySessions(tx, `user:${userId}`);
  });
  sessionCacheOf(db).forget(`user:${userId}`);
}
