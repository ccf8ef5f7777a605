import type { FastifyBaseLogger } from 'fastify';
import type { VRChat } from 'vrchat';
import type { BucketShape, SharedBudget } from '../../db/budget.js';
import type { AppConfig } from '../../kernel/config.js';
import type { VrchatAccountPort } from '../ports.js';
import { SessionKeyvStore } from './cookie-store.js';
import { VrchatError } from './errors.js';
import { groupMethods } from './groups.js';
import { LoginGate, type LoginGateOptions } from './login-gate.js';
import { toUserDetail, toUserSummary } from './mappers.js';
import { Pacer } from './pacer.js';
import { cookieHeaderOf, createSdk, type Outcome, outcomeOf } from './sdk.js';
import type { SessionStore } from './session-store.js';
import { StatusTracker, type VrchatState } from './status.js';
import { createTransport, scaledSettings, type VrchatPacerSettings } from './transport.js';

export interface VrchatPlatformOptions {
  config: AppConfig['vrchat'];
  sessionStore: SessionStore;
  log: FastifyBaseLogger;
  pacer?: VrchatPacerSettings;
  /**
   * Spacing of login attempts (default 60 s, doubling per failure up to 1 h), and how long a call whose
   * session expired within that spacing looks for another process's new session (default 5 s).
   */
  login?: LoginGateOptions & { waitForOthersMs?: number };
  /** Sent in the User-Agent; defaults to the server's package version. */
  version?: string;
  fetch?: typeof fetch;
  /** The local address VRChat API requests leave from (config `vrchat.localAddress`); default: the system's. */
  localAddress?: string;
  /**
   * The bot account's request budget shared by every process (db/budget.ts), made for the pacing's
   * rate and burst; absent: this process paces itself alone (tests without a database).
   */
  sharedBudget?: (shape: BucketShape) => SharedBudget;
}

export interface VrchatPlatform extends VrchatAccountPort {
  /** The account's own VRChat user (looked up once; a failed look-up is asked again next time). */
  self(): Promise<{ userId: string; displayName: string }>;
  /** The account's sustained requests a second (its budget's refill, time scale applied). */
  requestsPerSecond(): number;
  /** Checks the stored session (no login if it still works), logs in otherwise; never throws. */
  start(): Promise<VrchatState>;
  state(): VrchatState;
  close(): Promise<void>;
}

/** The seam between the SDK and the typed methods: one paced, mapped call. */
export interface VrchatCaller {
  call<T>(
    run: (sdk: VRChat) => Promise<{ data?: T; error?: unknown; response?: Response }>,
  ): Promise<Outcome<T>>;
  /** Throws the VrchatError for an outcome no method maps. */
  fail(outcome: Extract<Outcome<unknown>, { ok: false }>): never;
}

/**
 * The product's VRChat account: one SDK client behind one request queue, a session that survives
 * restarts, and logins only when VRChat asks for one, never more than one per cooldown.
 */
export function createVrchatPlatform(opts: VrchatPlatformOptions): VrchatPlatform {
  const { config, log } = opts;
  const status = new StatusTracker(log);
  const timeScale = opts.pacer?.timeScale ?? 1;
  const gate = new LoginGate({
    ...opts.login,
    // The test-only time scale shortens the login cooldown too (the defaults are 60 s and 1 h).
    cooldownMs: (opts.login?.cooldownMs ?? 60_000) / timeScale,
    maxCooldownMs: (opts.login?.maxCooldownMs ?? 3_600_000) / timeScale,
  });
  const paced = scaledSettings(opts.pacer);
  const shape = { ratePerSecond: paced.ratePerSecond ?? 1, burst: paced.burst ?? 3 };
  const pacer = new Pacer({ ...shape, agingMs: paced.agingMs, budget: opts.sharedBudget?.(shape) });
  const cookieStore = new SessionKeyvStore(opts.sessionStore, log);
  const transport = createTransport({
    pacer,
    gate,
    status,
    log,
    hasTotpSecret: Boolean(config.totpSecret),
    cookieHeader: () => cookieHeaderOf(client),
    fetch: opts.fetch,
    settings: opts.pacer,
    localAddress: opts.localAddress,
    account: config.username,
  });
  const client = createSdk({ config, cookieStore, fetch: transport.fetch, version: opts.version });
  shareLogins({
    client,
    cookieStore,
    sessionStore: opts.sessionStore,
    gate,
    log,
    credentials: [config.username, config.password, config.totpSecret].map((v) => v ?? '').join('\0'),
    shareWaitMs: (opts.login?.waitForOthersMs ?? 5_000) / timeScale,
  });
  const configured = Boolean(config.username && config.password);
  if (!configured) {
    status.set('logged_out', { lastError: 'VRChat credentials are not configured' });
    log.warn('VRChat: credentials are not configured; VRChat features answer 503');
  }
  let closed = false;

  const caller: VrchatCaller = {
    async call(run) {
      if (closed) return { ok: false, status: 503, message: 'The VRChat client is closed.' };
      if (!configured) return { ok: false, status: 503, message: 'VRChat credentials are not configured' };
      return outcomeOf(() => run(client));
    },
    fail(outcome) {
      // A 401 that reaches us means the SDK's login failed or was held back by the login gate.
      if (outcome.status === 401) {
        const s = status.get();
        throw new VrchatError(
          503,
          `VRChat is not logged in (${s.status}): ${s.lastError ?? outcome.message}`,
        );
      }
      // Rate limited past our retries or the caller's deadline: say so, and when to try again.
      if (outcome.status === 429) {
        const until = Math.max(
          pacer.pausedUntilMs() ?? 0,
          Date.parse(status.get().rateLimitedUntil ?? '') || 0,
        );
        const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
        throw new VrchatError(
          429,
          `VRChat is rate limiting requests. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
          seconds,
        );
      }
      throw new VrchatError(outcome.status, outcome.message);
    },
  };

  let starting: Promise<VrchatState> | undefined;
  let self: Promise<{ userId: string; displayName: string }> | undefined;
  const lookUpSelf = () => {
    self ??= caller
      .call((c) => c.getCurrentUser({}))
      .then((res) => {
        if (!res.ok) caller.fail(res);
        const user = res.data as { id: string; displayName: string };
        return { userId: user.id, displayName: user.displayName };
      });
    // A failed look-up is asked again next time.
    self.catch(() => {
      self = undefined;
    });
    return self;
  };
  const start = () => {
    starting ??= caller
      .call((c) => c.getCurrentUser({}))
      .then(() => status.get())
      .finally(() => {
        starting = undefined;
      });
    return starting;
  };

  return {
    start,
    state: () => status.get(),
    requestsPerSecond: () => shape.ratePerSecond,

    async searchUsers(query, { n = 20, offset = 0 } = {}) {
      const search = query.trim();
      if (!search) return [];
      // VRChat refuses n above 100 ("implement paging you savages").
      const page = { n: Math.min(Math.max(1, n), 100), offset: Math.max(0, offset) };
      const res = await caller.call((c) => c.searchUsers({ query: { search, ...page } }));
      if (!res.ok) caller.fail(res);
      return (res.data ?? []).map(toUserSummary);
    },

    async getUser(id) {
      const res = await caller.call((c) => c.getUser({ path: { userId: id } }));
      if (!res.ok && res.status === 404) return null;
      if (!res.ok) caller.fail(res);
      return toUserDetail(res.data);
    },

    self: lookUpSelf,

    async currentUserId() {
      return (await lookUpSelf()).userId;
    },

    ...groupMethods(caller),

    async close() {
      if (closed) return;
      closed = true;
      transport.close();
      pacer.close();
      client.pipeline.close();
      await cookieStore.flush();
    },
  };
}

/** The SDK's private login step (run on a 401) and its in-memory cookie cache, which we wrap and refresh. */
type SdkInternals = {
  authenticate(options?: { partial?: boolean }): Promise<{ data?: unknown }>;
  cache: { primary: { delete(key: string): Promise<unknown> } };
};

/**
 * One login for every adapter sharing the stored session (all server processes on one database). When the
 * SDK wants to log in (a 401: no session yet, or it expired), it first takes the store's lock and reads the
 * stored jar again: if another adapter stored a new session meanwhile, that session is used and the call
 * retried; otherwise this adapter logs in (through the login gate) and stores the session before the lock
 * is released. An adapter whose own login cooldown holds it back lets the others go first and then looks
 * once more, so a session that expires right after this process's login is replaced by another process's.
 */
function shareLogins(deps: {
  client: VRChat;
  cookieStore: SessionKeyvStore;
  sessionStore: SessionStore;
  gate: LoginGate;
  log: FastifyBaseLogger;
  /** The credentials logins use (username, password, TOTP secret), for the shared login pause. */
  credentials: string;
  /** How long a call whose login cooldown holds looks for another process's new session (ms). */
  shareWaitMs: number;
}): void {
  const sdk = deps.client as unknown as SdkInternals;
  const sdkAuthenticate = sdk.authenticate.bind(deps.client);
  let running: ReturnType<SdkInternals['authenticate']> | undefined;

  /** Takes over a jar another adapter stored since we last looked; false when there is none (or no read). */
  const adopted = async () => {
    const changed = await deps.cookieStore.adoptIfChanged().catch((err) => {
      deps.log.warn({ err }, 'VRChat: could not read the stored session again');
      return false;
    });
    // The SDK keeps the jar in memory too; dropped, its next read comes from the adopted one.
    if (changed) await sdk.cache.primary.delete('cookies');
    return changed;
  };
  /** The SDK's login (or session check): others read the stored jar without the lock, so it changes only once this has ended. */
  const authenticateHeld = (options?: { partial?: boolean }) => {
    deps.cookieStore.hold();
    return sdkAuthenticate(options).finally(() => deps.cookieStore.settle());
  };
  const authenticate = async (options?: { partial?: boolean }) => {
    const first = await deps.sessionStore.exclusive(async () => {
      if (await adopted()) {
        deps.log.info('VRChat: using the session another process logged in with');
        // Checks the adopted session with one call; logs in (gated) only if it does not work either.
        return authenticateHeld({ partial: true });
      }
      // Another process's failed login pauses ours too: a wrong password is tried once per pause, not per process.
      const shared = await deps.sessionStore.loadLoginPause(deps.credentials).catch(() => null);
      if (shared && shared.until > deps.gate.now()) deps.gate.adopt(shared);
      if (deps.gate.now() < deps.gate.nextAttemptAt) return undefined;
      return authenticateHeld(options).finally(async () => {
        await deps.sessionStore
          .saveLoginPause(deps.gate.pause ?? null, deps.credentials)
          .catch((err) => deps.log.warn({ err }, 'VRChat: could not share the login pause'));
      });
    });
    if (first) return first;
    // Our cooldown holds: adapters that were waiting for the lock go first; one of them may log in.
    const adoptedMeanwhile = await waitForAnotherLogin();
    return deps.sessionStore.exclusive(async () => {
      const partial = (await adopted()) || adoptedMeanwhile || options?.partial;
      return authenticateHeld({ ...options, partial });
    });
  };
  /**
   * After a login of ours that worked, the session expired within our cooldown: every process sharing it
   * gets the same 401 at about the same time, but another's may reach the lock only after ours has gone
   * by (a busy machine). Rather than failing the call at once, look for the session another process
   * stores, for a few seconds or until our cooldown ends. A failed login's pause is not waited out: the
   * others use the same credentials.
   */
  const waitForAnotherLogin = async () => {
    if (deps.gate.failuresInARow > 0) return false;
    const giveUpAt = Date.now() + deps.shareWaitMs;
    deps.log.info(
      'VRChat: the session expired moments after our login; waiting for another process to log in',
    );
    for (let pause = 50; Date.now() < giveUpAt; pause = Math.min(pause * 2, 500)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, giveUpAt - Date.now())));
      if (await adopted()) return true;
      if (deps.gate.now() >= deps.gate.nextAttemptAt) return false;
    }
    return false;
  };
  sdk.authenticate = (options) => {
    running ??= authenticate(options).finally(() => {
      running = undefined;
    });
    return running;
  };
}
