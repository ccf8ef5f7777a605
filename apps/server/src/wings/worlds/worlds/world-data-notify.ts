import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../../db/client.js';

/**
 * The channel telling every process that serves world data what changed: 'u:<id>:<ms>' (the world's updated_at
 * moved, to that time; migration 0033 added it) and 'd:<id>' (deleted) come from a trigger on `worlds` (migration
 * 0016); 'b:<process>:<id>' is
 * sent by a process that stored a new body, so the others take it without rebuilding.
 */
export const WORLD_DATA_CHANNEL = 'world_data';

/** How long a broken LISTEN connection waits before connecting again. */
const RECONNECT_MS = 1000;

export interface WorldDataListener {
  /** False while PostgreSQL's LISTEN connection is down: messages may be missed, bodies live shortly. */
  connected(): boolean;
  close(): Promise<void>;
}

export interface ListenHandlers {
  message(payload: string): void;
  /** Listening again after a break: whatever was said meanwhile is lost. */
  resync(): void;
}

/** Sends a message on the channel (delivered when the surrounding transaction, if any, commits). */
export async function notifyWorldData(database: Database, payload: string): Promise<void> {
  await database.executeSql('select pg_notify($1, $2)', [WORLD_DATA_CHANNEL, payload]);
}

/**
 * Listens on the channel: PostgreSQL on a connection of its own (reconnecting after a break), PGlite on
 * its only connection (one process, messages delivered as its queries finish).
 */
export async function listenWorldData(
  database: Database,
  handlers: ListenHandlers,
  log: FastifyBaseLogger,
): Promise<WorldDataListener> {
  if (database.kind === 'pglite' || !database.url) {
    // drizzle's PGlite driver keeps its client here; the Database interface has no listen of its own.
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const unlisten = await client.listen(WORLD_DATA_CHANNEL, handlers.message);
    return { connected: () => true, close: () => unlisten() };
  }
  return listenPostgres(database.url, handlers, log);
}

async function listenPostgres(
  url: string,
  handlers: ListenHandlers,
  log: FastifyBaseLogger,
): Promise<WorldDataListener> {
  let client: pg.Client | undefined;
  let up = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    const broken = (err?: Error) => {
      if (client !== next) return;
      client = undefined;
      up = false;
      next.end().catch(() => {});
      if (closed) return;
      log.warn({ err }, 'World data: the LISTEN connection broke; serving bodies shortly until it is back');
      retry = setTimeout(
        () => connect().catch((err) => log.warn({ err }, 'World data: reconnecting the LISTEN failed')),
        RECONNECT_MS,
      );
    };
    client = next;
    next.on('error', broken);
    next.on('end', () => broken());
    next.on('notification', (msg) => {
      if (msg.channel === WORLD_DATA_CHANNEL && msg.payload) handlers.message(msg.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${WORLD_DATA_CHANNEL}`);
    } catch (err) {
      broken(err as Error);
      return;
    }
    if (client !== next) return;
    up = true;
    handlers.resync();
  };

  await connect();
  return {
    connected: () => up,
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      up = false;
      await last?.end().catch(() => {});
    },
  };
}
