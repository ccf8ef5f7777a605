import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { loginTokens, sdkLoginRequests, sessions } from '../../db/schema/index.js';

/** Deletes expired sessions and one-time tokens (privacy policy: most personal data at most 72 hours). */
export async function purgeExpired(db: Db, now = new Date()): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(loginTokens).where(lt(loginTokens.expiresAt, now));
  await db.delete(sdkLoginRequests).where(lt(sdkLoginRequests.expiresAt, now));
}
