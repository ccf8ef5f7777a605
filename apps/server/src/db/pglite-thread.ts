/**
 * The embedded database's own thread (`npm start`'s PGlite): PostgreSQL compiled to WebAssembly runs every
 * statement synchronously on the thread that calls it, so on the request thread each background query (job
 * wakeups, the scheduler's claims, heartbeats) stalled every request in flight. Here it runs beside it; the
 * thread that started it, and other threads through ports it opened for them, talk to it through
 * pglite-remote.ts. It is to them what a PostgreSQL server is to its processes: each port has its own
 * transactions and LISTENs, and named locks exclude across ports. Imports packages and pglite-protocol's
 * types only: it is its own bundle entry (dist/pglite-thread.mjs).
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type ParserOptions, PGlite, type Transaction } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './pglite-extensions.js';
import type {
  PgliteMessage,
  PgliteReply,
  PgliteRequest,
  PgliteThreadData,
  WireError,
} from './pglite-protocol.js';

if (!parentPort) throw new Error('pglite-thread.ts runs as a worker thread only.');
const ownerPort: MessagePort = parentPort;
const data = workerData as PgliteThreadData;

/** A thread using the database, by the port it speaks on: what it left open goes when that port closes. */
interface Peer {
  port: MessagePort;
  /** Transactions it opened and has not ended. */
  transactions: Set<number>;
  /** Channels it listens on. */
  channels: Set<string>;
  gone: boolean;
}

const newPeer = (port: MessagePort): Peer => ({
  port,
  transactions: new Set(),
  channels: new Set(),
  gone: false,
});
const owner = newPeer(ownerPort);
/** The ports opened for other threads (openPort), while open. */
const attached = new Set<Peer>();
let closing = false;

const send = (peer: Peer, reply: PgliteReply) => peer.port.postMessage(reply);

const options = {
  extensions: PGLITE_EXTENSIONS,
  loadDataDir: data.loadDataDir ? new Blob([data.loadDataDir]) : undefined,
};
const pg = data.dataDir.startsWith('memory://') ? new PGlite(options) : new PGlite(data.dataDir, options);

/** Open transactions by id: the port that opened it, the handle, and how to end it (commit or roll back). */
const open = new Map<
  number,
  { peer: Peer; tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }
>();
let nextTx = 1;

/** Channels LISTENed in PGlite (once each): the ports listening, and PGlite's listen (its stop function). */
const channels = new Map<string, { peers: Set<Peer>; listening: Promise<() => Promise<void>> }>();

/** Named locks: the port holding each, and the requests waiting for it in order. */
const locks = new Map<string, { holder: Peer; queue: { peer: Peer; id: number }[] }>();

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

function target(peer: Peer, tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return pg;
  const entry = open.get(tx);
  if (!entry || entry.peer !== peer) throw new Error('Transaction is closed');
  return entry.tx;
}

/** Opens a transaction and answers `id` with its number once BEGIN ran; it stays open until `end`. */
function begin(peer: Peer, id: number): void {
  const txId = nextTx++;
  let began = false;
  let end!: (commit: boolean) => void;
  const ended = new Promise<boolean>((resolve) => {
    end = resolve;
  });
  const done = pg
    .transaction(async (tx) => {
      open.set(txId, { peer, tx, end, done });
      peer.transactions.add(txId);
      began = true;
      // A port that closed while its BEGIN waited for the transaction before: nobody is left to end it.
      if (peer.gone) end(false);
      else send(peer, { id, ok: true, value: txId });
      if (!(await ended)) await tx.rollback();
    })
    .finally(() => {
      open.delete(txId);
      peer.transactions.delete(txId);
    });
  // A BEGIN that failed (a closed database) answers the begin; a failed COMMIT answers the end.
  done.catch((err) => {
    if (!began) send(peer, { id, ok: false, error: wireError(err) });
  });
}

/** Adds the port to the channel's listeners; PGlite LISTENs for the first. Resolves once it listens. */
async function listen(peer: Peer, channel: string): Promise<void> {
  let entry = channels.get(channel);
  if (!entry) {
    const peers = new Set<Peer>();
    const listening = pg.listen(channel, (payload) => {
      for (const listener of peers) send(listener, { notify: channel, payload });
    });
    const created = { peers, listening };
    entry = created;
    channels.set(channel, created);
    // A LISTEN that failed is tried again by the next listen.
    listening.catch(() => {
      if (channels.get(channel) === created) channels.delete(channel);
    });
  }
  entry.peers.add(peer);
  peer.channels.add(channel);
  try {
    await entry.listening;
  } catch (err) {
    entry.peers.delete(peer);
    peer.channels.delete(channel);
    throw err;
  }
}

/** Removes the port from the channel's listeners; PGlite UNLISTENs after the last. */
async function unlisten(peer: Peer, channel: string): Promise<void> {
  peer.channels.delete(channel);
  const entry = channels.get(channel);
  if (!entry?.peers.delete(peer) || entry.peers.size > 0) return;
  channels.delete(channel);
  // PGlite serializes its listens: a listen that came meanwhile LISTENs after this UNLISTEN.
  await (await entry.listening)();
}

/** Grants the lock at once when it is free, else queues the request: it is answered when granted. */
function lock(peer: Peer, id: number, name: string): void {
  const entry = locks.get(name);
  if (entry) {
    entry.queue.push({ peer, id });
    return;
  }
  locks.set(name, { holder: peer, queue: [] });
  send(peer, { id, ok: true, value: undefined });
}

function unlock(peer: Peer, name: string): void {
  const entry = locks.get(name);
  if (entry?.holder !== peer) throw new Error(`The lock "${name}" is not held by this client.`);
  passOn(name, entry);
}

/** Gives the lock to the first request waiting for it, or frees it. */
function passOn(name: string, entry: { holder: Peer; queue: { peer: Peer; id: number }[] }): void {
  const next = entry.queue.shift();
  if (!next) {
    locks.delete(name);
    return;
  }
  entry.holder = next.peer;
  send(next.peer, { id: next.id, ok: true, value: undefined });
}

/** A port that closed: its transactions roll back, its listens stop, its locks pass on, its waits end. */
function drop(peer: Peer): void {
  if (peer.gone) return;
  peer.gone = true;
  attached.delete(peer);
  for (const txId of peer.transactions) open.get(txId)?.end(false);
  for (const channel of [...peer.channels]) unlisten(peer, channel).catch(() => {});
  for (const [name, entry] of locks) {
    entry.queue = entry.queue.filter((waiting) => waiting.peer !== peer);
    if (entry.holder === peer) passOn(name, entry);
  }
}

/** Serves a port opened for another thread until it closes (by that thread, its end, or the database's). */
function attach(port: MessagePort): void {
  const peer = newPeer(port);
  attached.add(peer);
  port.on('message', (msg: PgliteMessage) => receive(peer, msg));
  port.on('close', () => drop(peer));
  if (closing) closePort(peer);
}

/** Tells the port's thread the database is closing (not gone), then closes the port. */
function closePort(peer: Peer): void {
  send(peer, { closed: true });
  drop(peer);
  peer.port.close();
}

/**
 * Closes the database for every port. The attached ones close first: their transactions roll back, so
 * PGlite's close (which waits for open transactions) can end. Answered, then the owner's port closes and the
 * thread ends.
 */
function close(peer: Peer, id: number): void {
  if (peer !== owner) {
    const err = new Error('Only the thread that started the embedded database closes it.');
    send(peer, { id, ok: false, error: wireError(err) });
    return;
  }
  closing = true;
  for (const other of [...attached]) closePort(other);
  pg.close()
    .then(
      () => send(owner, { id, ok: true, value: undefined }),
      (err: unknown) => send(owner, { id, ok: false, error: wireError(err) }),
    )
    .finally(() => ownerPort.close());
}

async function run(
  peer: Peer,
  req: Exclude<PgliteRequest, { op: 'begin' | 'close' | 'lock' }>,
): Promise<unknown> {
  switch (req.op) {
    case 'query':
      return target(peer, req.tx).query(req.text, req.params, {
        rowMode: req.rowMode,
        parsers: parsersFor(req.rawTypes),
      });
    case 'exec':
      return target(peer, req.tx).exec(req.text);
    case 'end': {
      const entry = open.get(req.tx);
      if (!entry || entry.peer !== peer) return undefined;
      entry.end(req.commit);
      await entry.done;
      return undefined;
    }
    case 'listen':
      return listen(peer, req.channel);
    case 'unlisten':
      return unlisten(peer, req.channel);
    case 'unlock':
      return unlock(peer, req.name);
    default:
      throw new Error(`Unknown request ${(req as { op: string }).op}`);
  }
}

function receive(peer: Peer, msg: PgliteMessage): void {
  switch (msg.op) {
    case 'attach':
      attach(msg.port);
      return;
    case 'begin':
      begin(peer, msg.id);
      return;
    case 'lock':
      lock(peer, msg.id, msg.name);
      return;
    case 'close':
      close(peer, msg.id);
      return;
    default:
      run(peer, msg).then(
        (value) => send(peer, { id: msg.id, ok: true, value }),
        (err: unknown) => send(peer, { id: msg.id, ok: false, error: wireError(err) }),
      );
  }
}

ownerPort.on('message', (msg: PgliteMessage) => receive(owner, msg));
