import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { PgliteCall, PgliteReply, PgliteThreadData, WireError } from './pglite-protocol.js';

/** What runs inside one transaction: the calls Drizzle and pg-boss make. */
export interface RemoteTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** Drizzle's raw parsers are identity functions on type OIDs: only which OIDs crosses the threads. */
function rawTypesOf(options: QueryOptions | undefined): number[] | undefined {
  const parsers = options?.parsers;
  if (!parsers) return undefined;
  for (const parse of Object.values(parsers)) {
    if (parse('x', 0) !== 'x') throw new Error('Only raw-text parsers reach the embedded database thread.');
  }
  return Object.keys(parsers).map(Number);
}

/** A database error rebuilt with its fields (code, severity…), so the checks that read them work unchanged. */
function fromWire(wire: WireError): Error {
  const err = Object.assign(new Error(wire.message), wire.fields);
  err.name = wire.name;
  if (wire.stack) err.stack = wire.stack;
  return err;
}

/**
 * The worker: the bundle's sibling `pglite-thread.mjs` (npm start, a release), or, run from the sources (tests,
 * `npm run dev`), the TypeScript file imported through tsx's loader inside the new thread.
 */
function startThread(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pglite-thread.mjs', import.meta.url), options);
  const source = new URL('./pglite-thread.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * PGlite in a worker thread, with the client surface Drizzle's PGlite driver and this product use (`query`,
 * `exec`, `transaction`, `listen`, `close`). The request thread only posts messages; the WebAssembly runs
 * beside it. The thread keeps the process alive only while a call is waiting, as PGlite in the thread did not.
 */
export class PgliteRemote {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private stopped: Error | undefined;
  private closing = false;

  /** @param onStopped told once when the thread ends without a close (its cause), so the operator hears of it. */
  constructor(
    data: PgliteThreadData,
    private readonly onStopped?: (err: Error) => void,
  ) {
    this.worker = startThread({
      workerData: data,
      transferList: data.loadDataDir ? [data.loadDataDir] : [],
    });
    this.worker.unref();
    this.worker.on('message', (reply: PgliteReply) => this.receive(reply));
    this.worker.on('error', (err: unknown) => this.stop(err instanceof Error ? err : new Error(String(err))));
    this.worker.on('exit', (code) => this.stop(new Error(`its thread exited with code ${code}`)));
  }

  private receive(reply: PgliteReply): void {
    if ('notify' in reply) {
      for (const listener of this.listeners.get(reply.notify) ?? []) listener(reply.payload);
      return;
    }
    const call = this.waiting.get(reply.id);
    if (!call) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker.unref();
    if (reply.ok) call.resolve(reply.value);
    else call.reject(fromWire(reply.error));
  }

  /** The thread is gone: every call waiting and every later one fails as a database that is not available. */
  private stop(cause: Error): void {
    if (this.stopped) return;
    const message = this.closing
      ? 'The embedded database is closed.'
      : `The embedded database is not accepting connections: ${cause.message}.`;
    // 57P03 (cannot_connect_now): requests answer 503, as for a PostgreSQL server that went away.
    this.stopped = Object.assign(new Error(message, { cause }), { code: '57P03' });
    for (const call of this.waiting.values()) call.reject(this.stopped);
    this.waiting.clear();
    if (!this.closing) this.onStopped?.(this.stopped);
  }

  private call<T>(req: PgliteCall): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ ...req, id });
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.call({
      op: 'query',
      text,
      params,
      rowMode: options?.rowMode,
      rawTypes: rawTypesOf(options),
      tx,
    });
  }

  exec(text: string, tx?: number): Promise<Results[]> {
    return this.call({ op: 'exec', text, tx });
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws or rolls back. */
  async transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const txId = await this.call<number>({ op: 'begin' });
    let closed = false;
    const guard = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: RemoteTransaction = {
      query: async (text, params, options) => {
        guard();
        return this.query(text, params, options, txId);
      },
      exec: async (text) => {
        guard();
        return this.exec(text, txId);
      },
      rollback: async () => {
        guard();
        closed = true;
        await this.call({ op: 'end', tx: txId, commit: false });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      if (!closed) {
        closed = true;
        await this.call({ op: 'end', tx: txId, commit: false }).catch(() => {});
      }
      throw err;
    }
    if (!closed) {
      closed = true;
      await this.call({ op: 'end', tx: txId, commit: true });
    }
    return result;
  }

  /** Calls `listener` with each NOTIFY on `channel`; resolves to the function that stops it. */
  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      await this.call({ op: 'unlisten', channel });
    };
  }

  /** Closes the database (its files written) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.closing = true;
    await this.call({ op: 'close' });
    await this.worker.terminate();
  }
}
