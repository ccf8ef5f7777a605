import { eq } from 'drizzle-orm';
import { decrypt, encrypt } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import { platformSessions } from '../../db/schema/index.js';

/** Where the VRChat cookie jar lives between restarts; one opaque string. */
export interface SessionStore {
  load(): Promise<string | null>;
  save(data: string): Promise<void>;
  clear(): Promise<void>;
}

/**
 * The jar encrypted in `platform_sessions`. A row that no longer decrypts (the secret key changed) reads
 * as no session: the adapter then logs in once and overwrites it.
 */
export function dbSessionStore(db: Db, secretKey: Buffer, name = 'vrchat'): SessionStore {
  return {
    async load() {
      const rows = await db.select().from(platformSessions).where(eq(platformSessions.name, name)).limit(1);
      if (!rows[0]) return null;
      try {
        return decrypt(secretKey, rows[0].dataEnc);
      } catch {
        return null;
      }
    },
    async save(data) {
      const dataEnc = encrypt(secretKey, data);
      await db
        .insert(platformSessions)
        .values({ name, dataEnc })
        .onConflictDoUpdate({ target: platformSessions.name, set: { dataEnc, updatedAt: new Date() } });
    },
    async clear() {
      await db.delete(platformSessions).where(eq(platformSessions.name, name));
    },
  };
}

/** A store that lives as long as the process (tests, or running without a database). */
export function memorySessionStore(initial: string | null = null): SessionStore {
  let data = initial;
  return {
    load: async () => data,
    save: async (next) => {
      data = next;
    },
    clear: async () => {
      data = null;
    },
  };
}
