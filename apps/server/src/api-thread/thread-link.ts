import type { MessagePort } from 'node:worker_threads';

/** The messages between the process's main thread and its API thread. */
type LinkMessage =
  | { ask: number; kind: string; payload?: unknown }
  | { answer: number; ok: true; value: unknown }
  | { answer: number; ok: false; message: string }
  | { tell: string; payload?: unknown };

/**
 * Questions and notices between two threads of one process over a MessagePort: `ask` answers what the other
 * side's `answer` handler for that kind returns (or rejects with its error's message); `tell` has no answer.
 * The port keeps neither thread alive: a thread ends by its own work, never by waiting for a question.
 */
export class ThreadLink {
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly handlers = new Map<string, (payload: unknown) => unknown>();
  private readonly listeners = new Map<string, (payload: unknown) => void>();
  private nextId = 1;
  private closed: Error | undefined;

  constructor(private readonly port: MessagePort) {
    port.on('message', (msg: LinkMessage) => this.receive(msg));
    port.on('close', () => this.close(new Error('The other thread of this process has ended.')));
    port.unref();
  }

  private receive(msg: LinkMessage): void {
    if ('tell' in msg) {
      this.listeners.get(msg.tell)?.(msg.payload);
      return;
    }
    if ('ask' in msg) {
      // reply() answers its own errors; what could still throw is a port closed meanwhile: nobody to tell.
      this.reply(msg.ask, msg.kind, msg.payload).catch(() => {});
      return;
    }
    const call = this.waiting.get(msg.answer);
    if (!call) return;
    this.waiting.delete(msg.answer);
    if (msg.ok) call.resolve(msg.value);
    else call.reject(new Error(msg.message));
  }

  private async reply(id: number, kind: string, payload: unknown): Promise<void> {
    const handler = this.handlers.get(kind);
    try {
      if (!handler) throw new Error(`Nothing in this thread answers "${kind}".`);
      this.post({ answer: id, ok: true, value: await handler(payload) });
    } catch (err) {
      this.post({ answer: id, ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  }

  private post(msg: LinkMessage): void {
    if (!this.closed) this.port.postMessage(msg);
  }

  /** Asks the other thread; rejects when it answers with an error, has ended, or does not answer in `timeoutMs`. */
  ask<T>(kind: string, payload?: unknown, timeoutMs = 10_000): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`The other thread of this process did not answer "${kind}" in time.`));
      }, timeoutMs);
      timer.unref();
      const settle =
        <A>(fn: (a: A) => void) =>
        (a: A) => {
          clearTimeout(timer);
          fn(a);
        };
      this.waiting.set(id, { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject) });
      this.post({ ask: id, kind, payload });
    });
  }

  /** What this thread answers to `kind` (one handler per kind). */
  answer(kind: string, handler: (payload: unknown) => unknown): void {
    this.handlers.set(kind, handler);
  }

  /** A notice to the other thread. */
  tell(kind: string, payload?: unknown): void {
    this.post({ tell: kind, payload });
  }

  /** Called with each notice of `kind` from the other thread (one listener per kind). */
  on(kind: string, listener: (payload: unknown) => void): void {
    this.listeners.set(kind, listener);
  }

  /** Ends the link: every question waiting and every later one fails with `cause`. */
  close(cause = new Error('The link between the threads is closed.')): void {
    if (this.closed) return;
    this.closed = cause;
    for (const call of this.waiting.values()) call.reject(cause);
    this.waiting.clear();
    this.port.close();
  }
}
