import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { apiKeys } from '../../../db/schema/index.js';
import type { ActiveApiKey } from '../../../kernel/actor.js';
import { sha256 } from '../../../kernel/crypto.js';

export type { ActiveApiKey };

/** The live key behind a token, or null (unknown or expired). Last use is recorded at most once a minute. */
export async function findApiKey(db: Db, token: string): Promise<ActiveApiKey | null> {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tokenHash, sha256(token)), gt(apiKeys.validUntil, new Date())));
  if (!key) return null;
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000)
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, key.id));
  return { id: key.id, guildId: key.guildId, permissions: key.permissions };
}

export async function findApiKeyById(db: Db, id: string): Promise<ActiveApiKey | null> {
  const [key] = await db
    .select({ id: apiKeys.id, guildId: apiKeys.guildId, permissions: apiKeys.permissions })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), gt(apiKeys.validUntil, new Date())));
  return key ?? null;
}
