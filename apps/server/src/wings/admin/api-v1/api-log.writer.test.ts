import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../../kernel/context.js';
import { API_LOG_FLUSH_MS, createApiLogWriter } from './api-log.writer.js';

/** A context whose database records each insert's rows (or fails it), and a logger to watch. */
function fakeContext(insert: (rows: unknown[]) => Promise<void>) {
  const inserts: unknown[][] = [];
  const warn = vi.fn();
  const ctx = {
    db: {
      insert: () => ({
        values: (rows: unknown[]) => {
          inserts.push(rows);
          return insert(rows);
        },
      }),
    },
    log: { warn },
  } as unknown as AppContext;
  return { ctx, inserts, warn };
}

/** A call; `permitted` says the signed-in caller passed the server's permission check (the route's mark). */
const call = (who: { apiKey?: object; auth?: object; permitted?: boolean }, status = 200, guildId = '900') =>
  [
    {
      method: 'GET',
      url: `/api/v1/guilds/${encodeURIComponent(guildId)}/members?limit=5`,
      params: { guildId },
      apiKey: who.apiKey ?? null,
      auth: who.auth ?? null,
      apiLogGuildId: who.permitted ? guildId : null,
    } as unknown as FastifyRequest,
    { statusCode: status, elapsedTime: 12.4 } as unknown as FastifyReply,
  ] as const;

const key = { id: 'k1', guildId: '900', permissions: ['ViewGuild'] };

describe('API log writer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the calls of a moment in one insert, after the answers', async () => {
    const { ctx, inserts } = fakeContext(async () => {});
    const writer = createApiLogWriter(ctx);
    writer.record(...call({ apiKey: key }));
    writer.record(...call({ apiKey: { ...key, guildId: '901' } }, 403, '900'));
    expect(inserts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(API_LOG_FLUSH_MS);
    expect(inserts).toEqual([
      [
        expect.objectContaining({ guildId: '900', apiKeyId: 'k1', status: 200, durationMs: 12 }),
        // A key's call to another server is in its own server's log.
        expect.objectContaining({ guildId: '901', apiKeyId: 'k1', status: 403 }),
      ],
    ]);
  });

  it('never makes a call wait on the database, and drops a batch it could not write', async () => {
    let fail: (err: Error) => void = () => {};
    const { ctx, warn } = fakeContext(
      () =>
        new Promise<void>((_, reject) => {
          fail = reject;
        }),
    );
    const writer = createApiLogWriter(ctx);
    expect(writer.record(...call({ apiKey: key }))).toBeUndefined();
    await vi.advanceTimersByTimeAsync(API_LOG_FLUSH_MS);
    fail(new Error('database down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ rows: 1 }), 'API log: writing calls failed');
  });

  it("records a signed-in user's call in the server addressed, unless refused there; nothing without credentials", async () => {
    const { ctx, inserts } = fakeContext(async () => {});
    const writer = createApiLogWriter(ctx);
    const user = { user: { id: '42' } };
    writer.record(...call({ auth: user, permitted: true }, 200));
    writer.record(...call({ auth: user, permitted: true }, 403));
    writer.record(...call({ auth: user, permitted: true }, 401));
    writer.record(...call({}, 401));
    await writer.flush();
    expect(inserts).toEqual([[expect.objectContaining({ guildId: '900', userId: '42', status: 200 })]]);
  });

  it('records nothing for a signed-in caller refused before the permission check, nor an id that is no Discord id', async () => {
    const { ctx, inserts } = fakeContext(async () => {});
    const writer = createApiLogWriter(ctx);
    const user = { user: { id: '42' } };
    // A stranger's bad query (400) in a server whose permission check they never passed.
    writer.record(...call({ auth: user }, 400));
    writer.record(...call({ auth: user, permitted: true }, 400, '\u0000'));
    await writer.flush();
    expect(inserts).toEqual([]);
  });

  it('writes a failed batch row by row, so one row the database refuses loses only itself', async () => {
    const { ctx, inserts, warn } = fakeContext(async (rows) => {
      const list = Array.isArray(rows) ? rows : [rows];
      if (list.some((r) => (r as { status: number }).status === 418)) throw new Error('refused row');
    });
    const writer = createApiLogWriter(ctx);
    writer.record(...call({ apiKey: key }, 200));
    writer.record(...call({ apiKey: key }, 418));
    writer.record(...call({ apiKey: key }, 404));
    await writer.flush();
    const written = inserts.slice(1).filter((rows) => (rows as unknown as { status: number }).status !== 418);
    expect(written).toEqual([
      expect.objectContaining({ status: 200 }),
      expect.objectContaining({ status: 404 }),
    ]);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ rows: 1 }), 'API log: writing calls failed');
  });
});
