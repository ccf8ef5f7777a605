/**
 * The embedded database's own thread (`npm start`'s PGlite): PostgreSQL compiled to WebAssembly runs every
 * statement synchronously on the thread that calls it, so on the request thread each background query (job
 * wakeups, the scheduler's claims, heartbeats) stalled every request in flight. Here it runs beside it; the
 * request thread talks to it through pglite-remote.ts. Imports packages and pglite-protocol's types only: it
 * is its own bundle entry (dist/pglite-thread.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type ParserOptions, PGlite, type Transaction } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './pglite-extensions.js';
import type { PgliteReply, PgliteRequest, PgliteThreadData, WireError } from './pglite-protocol.js';

const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread only.');
const data = workerData as PgliteThreadData;

const send = (reply: PgliteReply) => port.postMessage(reply);

const options = {
  extensions: PGLITE_EXTENSIONS,
  loadDataDir: data.loadDataDir ? new Blob([data.loadDataDir]) : undefined,
};
const pg = data.dataDir.startsWith('memory://') ? new PGlite(options) : new PGlite(data.dataDir, options);

/** Open transactions by id: the handle, and how to end it (commit or roll back). */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }>();
let nextTx = 1;
const unlisten = new Map<string, () => Promise<void>>();

const raw = (value: string) => value;
function parsersFor(rawTypes: number[] | undefined): ParserOptions | undefined {
  if (!rawTypes?.length) return undefined;
  return Object.fromEntries(rawTypes.map((oid) => [oid, raw]));
}

/**
 * An error's name, message and plain fields (code, severity, detail, constraint…; errno for the file system's
 * ErrnoError, a plain object): what the request thread's checks read.
 */
function wireError(err: unknown): WireError {
  if (err === null || typeof err !== 'object') return { name: 'Error', message: String(err), fields: {} };
  const { name, message, stack } = err as { name?: unknown; message?: unknown; stack?: unknown };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    const kind = typeof value;
    if (kind === 'string' || kind === 'number' || kind === 'boolean') fields[key] = value;
  }
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(err),
    stack: typeof stack === 'string' ? stack : undefined,
    fields,
  };
}

function target(tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return pg;
  const entry = open.get(tx);
  if (!entry) throw new Error('Transaction is closed');
  return entry.tx;
}

/** Opens a transaction and answers `id` with its number once BEGIN ran; it stays open until `end`. */
function begin(id: number): void {
  const txId = nextTx++;
  let began = false;
  let end!: (commit: boolean) => void;
  const ended = new Promise<boolean>((resolve) => {
    end = resolve;
  });
  const done = pg
    .transaction(async (tx) => {
      open.set(txId, { tx, end, done });
      began = true;
      send({ id, ok: true, value: txId });
      if (!(await ended)) await tx.rollback();
    })
    .finally(() => open.delete(txId));
  // A BEGIN that failed (a closed database) answers the begin; a failed COMMIT answers the end.
  done.catch((err) => {
    if (!began) send({ id, ok: false, error: wireError(err) });
  });
}

async function run(req: Exclude<PgliteRequest, { op: 'begin' | 'close' }>): Promise<unknown> {
  switch (req.op) {
    case 'query':
      return target(req.tx).query(req.text, req.params, {
        rowMode: req.rowMode,
        parsers: parsersFor(req.rawTypes),
      });
    case 'exec':
      return target(req.tx).exec(req.text);
    case 'end': {
      const entry = open.get(req.tx);
      if (!entry) return undefined;
      entry.end(req.commit);
      await entry.done;
      return undefined;
    }
    case 'listen': {
      const stop = await pg.listen(req.channel, (payload) => send({ notify: req.channel, payload }));
      unlisten.set(req.channel, stop);
      return undefined;
    }
    case 'unlisten':
      await unlisten.get(req.channel)?.();
      unlisten.delete(req.channel);
      return undefined;
    default:
      throw new Error(`Unknown request ${(req as { op: string }).op}`);
  }
}

port.on('message', (req: PgliteRequest) => {
  if (req.op === 'begin') return begin(req.id);
  if (req.op === 'close') {
    // Answered, then the port closes and the thread ends.
    pg.close()
      .then(
        () => send({ id: req.id, ok: true, value: undefined }),
        (err: unknown) => send({ id: req.id, ok: false, error: wireError(err) }),
      )
      .finally(() => port.close());
    return;
  }
  run(req).then(
    (value) => send({ id: req.id, ok: true, value }),
    (err: unknown) => send({ id: req.id, ok: false, error: wireError(err) }),
  );
});
