import { and, desc, eq, lt } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { apiLog } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { apiKeyNameSql, requireGuildPermission } from '../../access/index.js';
import { type MyDataExport, usernameSql } from '../../identity/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export const API_LOG_PAGE_SIZE = 50;
const CURSOR_KIND = 'apilog';

/** The server's API log, newest first, for its Admins; keyset pages by row id. */
export async function listApiLog(ctx: AppContext, actor: Actor, guildId: string, cursor?: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const beforeId = cursor ? Number(decodeCursor(CURSOR_KIND, cursor, /^\d{1,15}$/)) : undefined;
  const rows = await ctx.db
    .select({ entry: apiLog, keyName: apiKeyNameSql(apiLog.apiKeyId), username: usernameSql(apiLog.userId) })
    .from(apiLog)
    .where(and(eq(apiLog.guildId, guildId), beforeId ? lt(apiLog.id, beforeId) : undefined))
    .orderBy(desc(apiLog.id))
    .limit(API_LOG_PAGE_SIZE + 1);
  const page = rows.slice(0, API_LOG_PAGE_SIZE);
  const last = page.at(-1);
  return {
    entries: page.map(({ entry, keyName, username }) => ({
      id: String(entry.id),
      time: entry.createdAt.toISOString(),
      apiKeyId: entry.apiKeyId,
      /** Null when the key has been deleted since. */
      apiKeyName: keyName,
      userId: entry.userId,
      username,
      method: entry.method,
      path: entry.path,
      status: entry.status,
      durationMs: entry.durationMs,
    })),
    nextCursor:
      rows.length > API_LOG_PAGE_SIZE && last ? encodeCursor(CURSOR_KIND, String(last.entry.id)) : null,
  };
}

/** The privacy export's section of the API calls a user made, newest first. */
export async function apiCallsOf(db: Queryable, userId: string): Promise<Pick<MyDataExport, 'apiCalls'>> {
  const calls = await db.select().from(apiLog).where(eq(apiLog.userId, userId)).orderBy(desc(apiLog.id));
  return {
    apiCalls: calls.map((c) => ({
      guildId: c.guildId,
      method: c.method,
      path: c.path,
      status: c.status,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}
