import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiLog } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';

type ApiLogRow = typeof apiLog.$inferInsert;

/** Calls are written together at most this long after their answer (one insert per batch). */
export const API_LOG_FLUSH_MS = 200;
/** A batch never grows past this; a burst beyond it is written at once. */
const MAX_BATCH = 500;
const MAX_PATH = 500;

/**
 * The API log's writer: `record` runs after the answer was sent (onResponse), so no caller waits on it; rows
 * are buffered and inserted in one statement per batch. A failed insert is logged and dropped: the log is an
 * aid for Admins, never a reason to fail or slow a call.
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
    } catch (err) {
      ctx.log.warn({ err, rows: batch.length }, 'API log: writing calls failed');
    }
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
 * the refusal), a signed-in user's call in the server it addressed unless refused there (401/403: a stranger
 * must not write into a server's log). Calls with no valid credentials are not recorded.
 */
function rowFor(req: FastifyRequest, reply: FastifyReply): ApiLogRow | null {
  const base = {
    method: req.method,
    path: req.url.slice(0, MAX_PATH),
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime),
  };
  if (req.apiKey) return { ...base, guildId: req.apiKey.guildId, apiKeyId: req.apiKey.id };
  const guildId = (req.params as { guildId?: unknown } | undefined)?.guildId;
  if (req.auth && typeof guildId === 'string' && reply.statusCode !== 401 && reply.statusCode !== 403)
    return { ...base, guildId, userId: req.auth.user.id };
  return null;
}
