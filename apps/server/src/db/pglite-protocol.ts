/**
 * The messages between the request thread and the thread that runs the embedded database (pglite-thread.ts).
 * Types only: both sides import it.
 */

/** What the thread opens: a data folder, or an in-memory database (optionally from a dump). */
export interface PgliteThreadData {
  dataDir: string;
  /** A `dumpDataDir` tarball to start a new database from (tests). */
  loadDataDir?: ArrayBuffer;
}

/** One call; `tx` runs it inside an open transaction. Every call is answered by a reply with its `id`. */
export type PgliteRequest =
  | {
      id: number;
      op: 'query';
      text: string;
      params?: unknown[];
      rowMode?: 'array' | 'object';
      /** Type OIDs whose values come back as PostgreSQL's text (what Drizzle asks for timestamps, dates…). */
      rawTypes?: number[];
      tx?: number;
    }
  | { id: number; op: 'exec'; text: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

/** A request before its id is given (an Omit per member keeps each one's own fields). */
export type PgliteCall = PgliteRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

/** A database error as it crosses the threads: its class name, message and plain fields (code, severity…). */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError }
  | { notify: string; payload: string };
