import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiLog } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';

type ApiLogRow = typeof apiLog.$inferInsert;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The server a signed-in caller passed the permission check of (set by the v1 routes): only such a
     * call goes into that server's API log, so a stranger refused before the check writes nothing there.
     */
    apiLogGuildId: string | null;
  }
}

/** Discord ids only: whatever else a path carried (e.g. U+0000) never reaches the log's id columns. */
const SNOWFLAKE = /^\d{1,20}$/;

/** Lets the v1 routes mark the server whose permission check a signed-in caller passed. */
export function decorateApiLog(app: FastifyInstance): void {
  app.decorateRequest('apiLogGuildId', null);
}

/** The v1 routes' mark: the caller passed the permission check of this server. */
export function permittedFor(req: FastifyRequest, guildId: string): void {
  req.apiLogGuildId = guildId;
}

/** Calls are written together at most this long after their answer (one insert per batch). */
export const API_LOG_FLUSH_MS = 200;
/** A batch never grows past this; a burst beyond it is written at once. */
const MAX_BATCH = 500;
const MAX_PATH = 500;

/**
 * The API log's writer: `record` runs after the answer was sent (onResponse), so no caller waits on it; rows
 * are buffered and inserted in one statement per batch. When a batch fails, its rows are written one by one,
 * so one row the database refuses never takes the others with it; a row that still fails is logged and
 * dropped: the log is an aid for Admins, never a reason to fail or slow a call.
 */
export function createApiLogWriter(ctx: AppContext) {
  let pending: ApiLogRow[] = [];
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    try {
      await ctx.db.insert(apiLog).values(batch);
      return;
    } catch (err) {
      if (batch.length === 1) {
        ctx.log.warn({ err, rows: 1 }, 'API log: writing calls failed');
        return;
      }
    }
    let failed = 0;
    let lastError: unknown;
    for (const row of batch) {
      try {
        await ctx.db.insert(apiLog).values(row);
      } catch (err) {
        failed++;
        lastError = err;
      }
    }
    if (failed > 0) ctx.log.warn({ err: lastError, rows: failed }, 'API log: writing calls failed');
  }

  function record(req: FastifyRequest, reply: FastifyReply): void {
    const row = rowFor(req, reply);
    if (!row) return;
    pending.push(row);
    if (pending.length >= MAX_BATCH) flush().catch(() => {});
    else timer ??= setTimeout(() => flush().catch(() => {}), API_LOG_FLUSH_MS);
  }

  return { record, flush };
}

/**
 * Whose log shows the call: an API key's own server (also when it called another server, so its Admins see
 * the refusal), a signed-in user's call in the server it addressed once the user passed that server's
 * permission check (a stranger's 400, 401 or 403 must not write into a server's log). Calls with no valid
 * credentials are not recorded.
 */
function rowFor(req: FastifyRequest, reply: FastifyReply): ApiLogRow | null {
  const base = {
    method: req.method,
    path: req.url.slice(0, MAX_PATH),
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime),
  };
  if (req.apiKey) return { ...base, guildId: req.apiKey.guildId, apiKeyId: req.apiKey.id };
  const guildId = req.apiLogGuildId;
  if (req.auth && guildId && SNOWFLAKE.test(guildId) && reply.statusCode !== 401 && reply.statusCode !== 403)
    return { ...base, guildId, userId: req.auth.user.id };
  return null;
}
