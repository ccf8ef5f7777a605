import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** A fault injected through the control API; applies to one platform's API calls until cleared or used up. */
export const faultSchema = z.object({
  platform: z.enum(['discord', 'vrchat']),
  /**
   * 'slow' waits before handling the request; 'slow_answer' handles it at once and holds its answer (the
   * platform did the work, the caller learns it late: a crash or an outage can fall in between).
   */
  kind: z.enum(['rate_limit', 'server_error', 'slow', 'slow_answer', 'timeout']),
  /** How many matching requests it affects; omitted = until cleared. */
  count: z.number().int().positive().optional(),
  /** Only requests whose path contains this text. */
  pathContains: z.string().optional(),
  /** For 'slow' and 'slow_answer': added latency in ms. */
  delayMs: z.number().int().min(0).max(60_000).optional(),
});
export type Fault = z.infer<typeof faultSchema>;

export class FaultStore {
  private faults: (Fault & { remaining: number })[] = [];
  /** Requests a 'slow' fault holds whose work is not done yet (see `delayedInFlight`). */
  private readonly delayed = new WeakSet<FastifyRequest>();
  private delayedCount = 0;

  /**
   * How many requests a 'slow' fault took are not yet carried out: a test waits for zero
   * before it checks what a client that gave up on them left behind (the work lands later all the same).
   */
  get delayedInFlight(): number {
    return this.delayedCount;
  }

  /** Marks a request a 'slow' fault took. */
  delay(req: FastifyRequest): void {
    this.delayed.add(req);
    this.delayedCount += 1;
  }

  /** The request's work is done (its answer is being sent). */
  carriedOut(req: FastifyRequest): void {
    if (!this.delayed.delete(req)) return;
    this.delayedCount -= 1;
  }

  add(fault: Fault): void {
    this.faults.push({ ...fault, remaining: fault.count ?? Number.POSITIVE_INFINITY });
  }

  clear(platform?: Fault['platform']): void {
    this.faults = platform ? this.faults.filter((f) => f.platform !== platform) : [];
  }

  list(): Fault[] {
    return this.faults.map(({ remaining: _r, ...f }) => f);
  }

  /** Takes the first fault matching this request, consuming one use. */
  take(platform: Fault['platform'], path: string): Fault | undefined {
    const fault = this.faults.find(
      (f) => f.platform === platform && f.remaining > 0 && (!f.pathContains || path.includes(f.pathContains)),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}

/** Answers held by a 'slow_answer' fault: the request and how long its answer waits. */
const heldAnswers = new WeakMap<FastifyRequest, number>();

/** Holds the answer of a request a 'slow_answer' fault took (an onSend hook of the platform's API). */
export async function holdAnswer(req: FastifyRequest): Promise<void> {
  const ms = heldAnswers.get(req);
  if (ms !== undefined) await new Promise((r) => setTimeout(r, ms));
}

/**
 * Applies an injected fault to a request. Returns true when the reply was sent (the caller must stop).
 * `rateLimited` writes the platform's own 429 shape.
 */
export async function applyFault(
  store: FaultStore,
  platform: Fault['platform'],
  req: FastifyRequest,
  reply: FastifyReply,
  rateLimited: (reply: FastifyReply) => FastifyReply,
): Promise<boolean> {
  const fault = store.take(platform, req.url);
  if (!fault) return false;
  switch (fault.kind) {
    case 'slow':
      store.delay(req);
      await new Promise((r) => setTimeout(r, fault.delayMs ?? 2000));
      return false;
    case 'slow_answer':
      heldAnswers.set(req, fault.delayMs ?? 2000);
      return false;
    case 'timeout':
      // Never answers within any sane client timeout; the socket is closed after a minute.
      await new Promise((r) => setTimeout(r, 60_000));
      reply.raw.destroy();
      return true;
    case 'rate_limit':
      await rateLimited(reply);
      return true;
    case 'server_error':
      await reply.code(502).type('text/html').send('<html><body>502 Bad Gateway</body></html>');
      return true;
  }
}
