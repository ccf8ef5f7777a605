import { vi } from 'vitest';
import type { Db } from '../src/db/client.js';

/** One statement the database ran: its text and how many rows it answered. */
export interface LoggedQuery {
  text: string;
  rows: number;
}

type QueryClient = { query: (...args: unknown[]) => Promise<{ rows?: unknown[] }> };

/**
 * Records what the app's database runs outside transactions (PGlite or node-postgres: drizzle's client), so a
 * test can say what one request reads, e.g. that it counts no member rows or lists no row per server of the bot.
 * `stop()` ends the recording.
 */
export function recordQueries(db: Db) {
  const client = (db as unknown as { session: { client: QueryClient } }).session.client;
  const spy = vi.spyOn(client, 'query');
  return {
    async queries(): Promise<LoggedQuery[]> {
      return Promise.all(
        spy.mock.calls.map(async (args, i) => {
          const first = args[0];
          const text = typeof first === 'string' ? first : (first as { text: string }).text;
          const answer = await Promise.resolve(spy.mock.results[i]?.value).catch(() => undefined);
          return { text, rows: (answer as { rows?: unknown[] } | undefined)?.rows?.length ?? 0 };
        }),
      );
    },
    stop: () => spy.mockRestore(),
  };
}
