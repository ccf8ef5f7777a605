import { and, eq, gt, lt, notExists } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import {
  apiLog,
  cooldowns,
  discordTokens,
  loginTokens,
  rateLimits,
  sdkLoginRequests,
  sessions,
  syncIntents,
} from '../db/schema/index.js';

/** How long API log rows are kept (the privacy policy's month); purgeExpired deletes older ones. */
export const API_LOG_RETENTION_DAYS = 30;

/**
 * Deletes what the privacy policy promises to keep at most 72 hours or until logout: expired sessions and
 * one-time tokens, and the Discord OAuth tokens of users without a live session; API log rows after a month. With linked roles on,
 * the Discord tokens stay: the bot needs them to update the user's role connection after a link change.
 * Runs as the scheduled task `retention.purge` (at start and hourly); idempotent, so any process may run it.
 */
export async function purgeExpired(db: Db, opts: { keepDiscordTokens: boolean }, now = new Date()) {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(loginTokens).where(lt(loginTokens.expiresAt, now));
  await db.delete(sdkLoginRequests).where(lt(sdkLoginRequests.expiresAt, now));
  await db.delete(cooldowns).where(lt(cooldowns.until, now));
  // Rate limit windows last at most a day (RATE_LIMIT_WINDOW_SECONDS).
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)));
  // The API log is kept a month (privacy policy).
  await db
    .delete(apiLog)
    .where(lt(apiLog.createdAt, new Date(now.getTime() - API_LOG_RETENTION_DAYS * 86_400_000)));
  // A sync intent is settled by the server's next run; one a week old belongs to a server no sync reaches.
  await db.delete(syncIntents).where(lt(syncIntents.createdAt, new Date(now.getTime() - 7 * 86_400_000)));
  if (!opts.keepDiscordTokens) {
    const liveSession = db
      .select({ one: sessions.idHash })
      .from(sessions)
      .where(and(eq(sessions.userId, discordTokens.userId), gt(sessions.expiresAt, now)));
    await db.delete(discordTokens).where(notExists(liveSession));
  }
}
