import type { FastifyBaseLogger } from 'fastify';
import { metrics, statusClass } from '../../observability/metrics.js';
import { bodyOf, classify, describe, type Kind, localError, observeAnswer } from './answers.js';
import { messageOf } from './errors.js';
import { currentShare, isInteractive, stopSignal } from './interactive.js';
import type { LoginGate } from './login-gate.js';
import {
  backoffDelay,
  type Pacer,
  PacerAbortedError,
  PacerClosedError,
  PacerDeadlineError,
  rateLimitPause,
  retryAfterMs,
} from './pacer.js';
import { SendGate } from './send-gate.js';
import type { StatusTracker } from './status.js';

/** Retry and timing settings of the single VRChat request queue. */
export interface VrchatPacerSettings {
  /** Sustained requests per second (default 1; VRChat asks for gentle use). */
  ratePerSecond?: number;
  /** Requests that may go at once after a quiet spell (default 3). */
  burst?: number;
  /** Retries after a 429, 5xx or network error (default 4); logins are never retried. */
  maxRetries?: number;
  /** First backoff after a 5xx or network error (default 1 s), doubled per retry up to backoffMaxMs. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /**
   * The global pause after a 429 that carries no Retry-After (default 60 s, VRChat's quoted "once per
   * 60 s"), tripled per 429 in a row up to rateLimitPauseMaxMs (default 1 h). A Retry-After is obeyed as is.
   */
  rateLimitPauseMs?: number;
  rateLimitPauseMaxMs?: number;
  /**
   * How much sooner an interactive request counts as queued (default 30 s): it goes before background
   * requests that came less than this before it, never before older ones (no starvation).
   */
  agingMs?: number;
  /**
   * Test-only (env VRCHAT_TIME_SCALE): runs VRChat's pacing N times faster, to match a simulator started
   * with the same `timeScale`: the rate is N times higher, every pause, backoff and login cooldown N times
   * shorter. Retry-After is obeyed as sent. Default 1.
   */
  timeScale?: number;
  /** Per-request timeout (default 15 s). */
  requestTimeoutMs?: number;
  /**
   * How long one call of an interactive caller (an HTTP request, see interactive.ts) waits for the queue,
   * rate-limit pauses and retries before it gives up: a 503 "rate limiting, try again in N s" (default 10 s).
   * Jobs wait.
   */
  interactiveDeadlineMs?: number;
  random?: () => number;
}

export interface TransportDeps {
  pacer: Pacer;
  gate: LoginGate;
  status: StatusTracker;
  log: FastifyBaseLogger;
  hasTotpSecret: boolean;
  /** The SDK's current cookie jar as a Cookie header (requests may wait in the queue while it changes). */
  cookieHeader: () => Promise<string | undefined>;
  fetch?: typeof fetch;
  settings?: VrchatPacerSettings;
  /**
   * The local address VRChat requests leave from (VRCHAT_LOCAL_ADDRESS), for a host with several egress
   * addresses; undefined: the system's choice.
   */
  localAddress?: string;
  /** The bot account's username (VRCHAT_USERNAME; not a secret), the `account` label of its 429s and pauses. */
  account?: string;
}

/** Added to a Retry-After: our clock and VRChat's round differently, and a probe 1 ms early extends the block. */
const RETRY_AFTER_MARGIN_MS = 250;

/** The settings with `timeScale` applied (rates up, durations down; the interactive deadline is a person's). */
export function scaledSettings(settings: VrchatPacerSettings = {}): VrchatPacerSettings {
  const k = settings.timeScale ?? 1;
  if (k === 1) return settings;
  const shorter = (ms: number | undefined, dflt: number) => (ms ?? dflt) / k;
  return {
    ...settings,
    ratePerSecond: (settings.ratePerSecond ?? 1) * k,
    backoffBaseMs: shorter(settings.backoffBaseMs, 1000),
    backoffMaxMs: shorter(settings.backoffMaxMs, 30_000),
    rateLimitPauseMs: shorter(settings.rateLimitPauseMs, 60_000),
    rateLimitPauseMaxMs: shorter(settings.rateLimitPauseMaxMs, 3_600_000),
    agingMs: shorter(settings.agingMs, 30_000),
  };
}

/** The message of a VrchatError raised because an interactive caller's deadline passed first. */
export const VRCHAT_DEADLINE_MESSAGE = 'VRChat did not answer in time';

/** An interactive call's deadline passed while VRChat had not answered yet. */
class DeadlineReached extends Error {
  constructor() {
    super(VRCHAT_DEADLINE_MESSAGE);
  }
}

/**
 * The `fetch` the SDK uses: every VRChat request passes the pacer, is retried with backoff on 429/5xx/
 * network errors, and feeds the status. Logins pass the login gate; 2FA codes only go to the TOTP endpoint.
 */
export function createTransport(deps: TransportDeps): { fetch: typeof fetch; close(): void } {
  const s = scaledSettings(deps.settings);
  const maxRetries = s.maxRetries ?? 4;
  const timeoutMs = s.requestTimeoutMs ?? 15_000;
  const realFetch = deps.fetch ?? globalThis.fetch;
  const closing = new AbortController();
  let rateLimitsInARow = 0;
  const sendGate = new SendGate(s.ratePerSecond ?? 1, s.burst ?? 3);
  // Only with a local address (loaded then, not before): otherwise Node's own connection pool serves every request.
  const localAddress = deps.localAddress;
  const dispatcher = localAddress
    ? import('undici').then(({ Agent }) => new Agent({ localAddress }))
    : undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        closing.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      closing.signal.addEventListener('abort', done, { once: true });
    });

  async function send(kind: Kind, req: Request, deadlineAt: number | undefined): Promise<Response> {
    if (kind !== 'login') {
      // Cookies may have changed while the request waited (another caller logged in meanwhile).
      const cookie = await deps.cookieHeader();
      if (cookie) req.headers.set('cookie', cookie);
    }
    const ctrl = new AbortController();
    // An interactive caller's deadline also bounds an answer that hangs: it is not kept waiting 15 s.
    const untilDeadline = deadlineAt === undefined ? Infinity : Math.max(1, deadlineAt - Date.now());
    const timer =
      untilDeadline < timeoutMs
        ? setTimeout(() => ctrl.abort(new DeadlineReached()), untilDeadline)
        : setTimeout(() => ctrl.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    const onClose = () => ctrl.abort(new DOMException('closed', 'AbortError'));
    closing.signal.addEventListener('abort', onClose, { once: true });
    try {
      const init = { signal: ctrl.signal, ...(dispatcher && { dispatcher: await dispatcher }) };
      return await realFetch(req, init as RequestInit);
    } finally {
      clearTimeout(timer);
      closing.signal.removeEventListener('abort', onClose);
    }
  }

  async function pacedFetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
    const template = input instanceof Request && !init ? input : new Request(input, init);
    const kind = classify(template);
    // The SDK sends the same code to every offered 2FA method; a TOTP code is never a recovery or email code.
    if (kind === 'other-2fa') return localError(401, 'Not attempted: the bot only uses TOTP');
    if (kind === 'totp' && !deps.hasTotpSecret) return localError(401, 'No TOTP secret is configured');
    if (kind === 'login' || (kind === 'totp' && !deps.gate.open)) {
      const gate = deps.gate.begin();
      if (gate) return localError(503, gate.refused);
    }
    const auth = kind !== 'api';
    // Per call, not per request: a request making many calls is not cut short by ordinary pacing.
    const deadlineAt = isInteractive() ? Date.now() + (s.interactiveDeadlineMs ?? 10_000) : undefined;
    /** Whether a retry after `ms` still fits before the caller's deadline (always for patient callers). */
    const fits = (ms: number) => deadlineAt === undefined || Date.now() + ms < deadlineAt;

    for (let attempt = 0; ; attempt++) {
      try {
        await deps.pacer.acquire({ deadlineAt, signal: stopSignal(), share: currentShare() });
      } catch (err) {
        if (err instanceof PacerClosedError || err instanceof PacerAbortedError)
          return localError(503, err.message);
        // Local 429: the platform answers 503 with the time to retry from the pacer's pause.
        if (err instanceof PacerDeadlineError) return localError(429, err.message);
        throw err;
      }
      // Sends as they leave stay within the rate and burst, even after a stall between the grant and here.
      const held = sendGate.reserve();
      if (held > 0) await sleep(held);
      let res: Response;
      const sentAt = Date.now();
      try {
        res = await send(kind, template.clone(), deadlineAt);
      } catch (err) {
        // The caller's deadline, not VRChat's failure: no retry, and the platform's status stays as it is.
        if (err instanceof DeadlineReached) {
          deps.pacer.recovered(sentAt);
          return localError(503, err.message);
        }
        // Not a 429: a probe that failed on the way ends its turn (the next request probes again).
        deps.pacer.recovered(sentAt);
        metrics.platformCalls.inc({ platform: 'vrchat', status: 'network' });
        const message = closing.signal.aborted
          ? 'The VRChat client is closed.'
          : `VRChat is unreachable: ${describe(err)}`;
        const delay = backoffDelay(attempt, s.backoffBaseMs ?? 1000, s.backoffMaxMs ?? 30_000, s.random);
        if (!auth && !closing.signal.aborted && attempt < maxRetries && fits(delay)) {
          deps.log.debug({ attempt, err: describe(err) }, 'VRChat: network error, retrying');
          await sleep(delay);
          continue;
        }
        if (auth) deps.gate.fail(message);
        deps.status.set('unreachable', { lastError: message });
        return localError(503, message);
      }

      metrics.platformCalls.inc({ platform: 'vrchat', status: statusClass(res.status) });
      if (res.status === 429) {
        const account = deps.account ?? '';
        metrics.platformRateLimits.inc({ platform: 'vrchat', account, kind: '429' });
        metrics.platformRateLimits.inc({ platform: 'vrchat', account, kind: 'pause' });
        const message = messageOf(await bodyOf(res), 429);
        rateLimitsInARow += 1;
        // VRChat's own word when it gives one; otherwise a guess long enough not to probe inside the block.
        const told = retryAfterMs(res.headers.get('retry-after'));
        deps.pacer.pause(
          told !== undefined
            ? told + RETRY_AFTER_MARGIN_MS / (deps.settings?.timeScale ?? 1)
            : rateLimitPause(
                rateLimitsInARow - 1,
                s.rateLimitPauseMs ?? 60_000,
                s.rateLimitPauseMaxMs ?? 3_600_000,
                s.random,
              ),
        );
        if (auth) deps.gate.fail(message);
        const until = Math.max(deps.pacer.pausedUntilMs() ?? 0, auth ? deps.gate.nextAttemptAt : 0);
        deps.status.set('rate_limited', { lastError: message, rateLimitedUntil: until });
        // A login is never retried: its 429 means too many sessions, and another login makes it worse.
        if (auth || attempt >= maxRetries) return res;
        deps.log.debug(
          { attempt, pausedUntil: new Date(until).toISOString() },
          'VRChat: 429, pausing all requests',
        );
        await res.body?.cancel().catch(() => {});
        continue;
      }
      // Not rate limited: the backoff starts over, and a probe sent during a pause ends it.
      rateLimitsInARow = 0;
      deps.pacer.recovered(sentAt);

      if (res.status >= 500) {
        const delay = backoffDelay(attempt, s.backoffBaseMs ?? 1000, s.backoffMaxMs ?? 30_000, s.random);
        if (!auth && attempt < maxRetries && fits(delay)) {
          deps.log.debug({ attempt, status: res.status }, 'VRChat: server error, retrying');
          await res.body?.cancel().catch(() => {});
          await sleep(delay);
          continue;
        }
        const message = messageOf(await bodyOf(res), res.status);
        if (auth) deps.gate.fail(message);
        deps.status.set('unreachable', { lastError: message });
        return res;
      }
      return observeAnswer(deps, kind, template, res);
    }
  }

  return {
    fetch: pacedFetch as typeof fetch,
    close: () => {
      closing.abort();
      void dispatcher?.then((d) => d.close()).catch(() => {});
    },
  };
}
