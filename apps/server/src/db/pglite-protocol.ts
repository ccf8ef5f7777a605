/**
 * The messages between the threads using the embedded database and the thread that runs it
 * (pglite-thread.ts): the thread that started it speaks over the worker's own port, others over ports it
 * opened for them. Types only: both sides import it.
 */
import type { MessagePort } from 'node:worker_threads';

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
  /** Answered once the named lock is the port's (first come, first served): until `unlock` or its close. */
  | { id: number; op: 'lock'; name: string }
  | { id: number; op: 'unlock'; name: string }
  /** From the thread that started the database only: closes it for every port. */
  | { id: number; op: 'close' };

/** A port for another thread (transferred, unanswered): the database thread serves it as its own one. */
export interface PgliteAttach {
  op: 'attach';
  port: MessagePort;
}

/** What the database thread receives on a port. */
export type PgliteMessage = PgliteRequest | PgliteAttach;

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
  | { notify: string; payload: string }
  /** Sent on an attached port just before the thread closes it because the database is closing. */
  | { closed: true };
