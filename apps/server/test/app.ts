import { type SimulatorOptions, demo as simulatorDemo } from '@vrclink/simulator';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { startBot } from '../src/bot/start-bot.js';
import { parseEnv } from '../src/env.js';
import { sessionXsrfToken } from '../src/http/auth.js';
import type { ZodApp } from '../src/http/types.js';
import { createJobQueue } from '../src/jobs/pg-boss-queue.js';
import { resolveConfig } from '../src/kernel/config.js';
import { type AppContext, createContext } from '../src/kernel/context.js';
import { type Platforms, startPlatforms } from '../src/platforms/start.js';
import { callSimulatorControl, LAX_SIMULATOR } from '../src/platforms/testing.js';
import type { VrchatPacerSettings } from '../src/platforms/vrchat/transport.js';
import { memberMirrorDiscord } from '../src/wings/access/members/member-mirror.port.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import { openTestDatabase } from './db.js';

export interface TestApp {
  app: ZodApp;
  ctx: AppContext;
  simulatorUrl?: string;
  /** The real adapters, talking to the simulator (only with `simulator`). */
  platforms?: Platforms;
  /** Calls the simulator's control API, e.g. `control('PATCH', '/vrchat/users/usr_…', {bio})`. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read the simulator's JSON ad hoc
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Sends a request as a browser would: with a session cookie (if given) and a matching XSRF pair. */
  inject(opts: InjectOptions & { session?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * `createTestApp` options for a test about something other than the limits that asks for the lax simulator,
 * named by why (docs/testing.md lists the files by reason); tests about the limits leave them strict.
 */
export const laxSimulator = {
  /** VRChat paced at 200/s here (the strict budget allows ~1/s and blocks the tests). */
  forVrchatTestPacing: { simulator: true, limits: 'lax' },
  /** Many Discord sign-ins, member reads or role changes from one address (Discord's per-route buckets). */
  forManyDiscordCalls: { simulator: true, limits: 'lax' },
  /** The 429s the test injects must be the only ones, so the counts it asserts are exact. */
  forOnlyInjected429s: { simulator: true, limits: 'lax' },
} as const;

const XSRF = 'test-xsrf-token';
/** VRChat's pacing, shortened so tests do not wait a second per call. */
const fastPacer = { ratePerSecond: 200, burst: 50, backoffBaseMs: 5, backoffMaxMs: 40, rateLimitPauseMs: 40 };

/** Builds the real app on a fresh database; with `simulator`, against a fresh simulator too. */
export async function createTestApp(
  opts: {
    simulator?: boolean;
    env?: Record<string, string>;
    jobs?: boolean;
    /**
     * Runs against the fresh simulator before the platforms start (e.g. switching the Server Members
     * intent off with `PATCH /control/discord/application`, or seeding members silently).
     */
    beforeStart?: (simulatorUrl: string) => Promise<void>;
    /**
     * The simulator's limits, when neither `simulatorOptions` nor `vrchatTimeScale` is given: 'strict' (the
     * default, as Discord and VRChat limit) or 'lax' (LAX_SIMULATOR). A test about something other than the
     * limits may ask for 'lax', saying why on the line: they pace VRChat at 200/s (the strict budget is ~1/s
     * and blocks them), sign many people in or read and change roles faster than Discord's per-route
     * buckets allow, or inject 429s that must be the only ones (docs/testing.md, "Lax simulator limits in
     * tests", lists the files by reason). Tests about the limits leave it strict or pass `vrchatTimeScale`.
     */
    limits?: 'strict' | 'lax';
    /** The simulator's options (over `limits`); `{}` is the strict default. */
    simulatorOptions?: SimulatorOptions;
    /**
     * Strict VRChat at N times the speed: the simulator's default (strict) limits with `timeScale: N` and
     * the product's own pacing with the same scale, instead of the lax simulator and fast test pacing.
     */
    vrchatTimeScale?: number;
    /** VRChat pacing over the fast test defaults (e.g. real rate-limit pauses). */
    vrchatPacer?: VrchatPacerSettings;
    /** The app's logger (default silent, or TEST_LOG_LEVEL); the HTTP bench logs at info like production. */
    log?: pino.Logger;
    /** The bot role's waits (gateway lock retries, reconnect after a failed connect), shortened by tests. */
    bot?: Parameters<typeof startBot>[1];
    /** How many of the simulator's bot accounts serve VRChat (default 1; the simulator seeds 3). */
    vrchatAccounts?: number;
  } = {},
): Promise<TestApp> {
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SECRET_KEY: 'x'.repeat(32), ...opts.env });
  const demo = opts.simulator
    ? await (await import('../src/demo.js')).startOwnSimulator(
        0,
        opts.simulatorOptions ??
          (opts.vrchatTimeScale
            ? { timeScale: opts.vrchatTimeScale }
            : opts.limits === 'lax'
              ? LAX_SIMULATOR
              : {}),
      )
    : undefined;
  if (demo && opts.beforeStart) await opts.beforeStart(demo.sim.url);
  const endpoints = demo && {
    ...demo.endpoints,
    vrchatAccounts: simulatorDemo.vrchatBots.slice(1, opts.vrchatAccounts ?? 1).map((a) => ({ ...a })),
  };
  const config = resolveConfig(env, endpoints);
  // Registered as an operator registers it in the developer portal (the simulator refuses other redirects).
  if (demo) await (await import('../src/demo.js')).registerLoginRedirect(demo.sim.url, config.publicUrl);
  const database = await openTestDatabase();
  const log = opts.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const platforms = demo
    ? await startPlatforms({
        config,
        database,
        log,
        // discord.js's margin past each bucket reset, as much shorter as the simulator's windows.
        discordTimeScale: opts.simulatorOptions?.timeScale,
        vrchatPacer: opts.vrchatTimeScale
          ? { timeScale: opts.vrchatTimeScale, ...opts.vrchatPacer }
          : { ...fastPacer, ...opts.vrchatPacer },
      })
    : undefined;
  // pg-boss in the test database, when the test needs real jobs (sending only; tests start workers).
  const jobs = opts.jobs ? createJobQueue(database, log) : undefined;
  await jobs?.start();
  const parts = { config, database, log, platforms, jobs };
  const ctx = createContext({ ...parts, discord: memberMirrorDiscord(parts) });
  // Like main.ts with every role: the bot wires its gateway events and connects.
  const stopBot = platforms ? startBot(ctx, opts.bot) : undefined;
  if (platforms) await waitForGateway(platforms);
  const { app } = await buildApp({ ctx, webDist: null });
  await app.ready();
  return {
    app,
    ctx,
    simulatorUrl: demo?.sim.url,
    platforms,
    async control(method, path, body) {
      if (!demo) throw new Error('control() needs createTestApp({ simulator: true })');
      return callSimulatorControl(demo.sim.url, method, path, body);
    },
    inject({ session, ...req }) {
      const cookies: Record<string, string> = { ...((req.cookies as Record<string, string>) ?? {}) };
      if (session) cookies.vrclink_session = session;
      // A browser's pair: its session's own token when signed in (http/auth.ts binds it), else a fixed one.
      const xsrf = cookies.vrclink_session
        ? sessionXsrfToken(config.secretKey, cookies.vrclink_session)
        : XSRF;
      cookies['XSRF-TOKEN'] ??= xsrf;
      return app.inject({ ...req, cookies, headers: { 'x-xsrf-token': xsrf, ...(req.headers ?? {}) } });
    },
    async close() {
      await stopBot?.();
      await app.close();
      await platforms?.close();
      await jobs?.stop();
      await database.close();
      await demo?.sim.close();
    },
  };
}

/** The bot connects in the background (after its lock); tests start once it is up or gave up. */
async function waitForGateway(platforms: Platforms): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const state = platforms.gatewayState();
    if (state === 'ready' || state === 'disconnected') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let nextId = 1300000000000000000n;

/** A signed-in user (factory): creates the user record and a web session, answers the session token. */
export async function signIn(
  t: TestApp,
  user: { id?: string; username?: string } = {},
): Promise<{ id: string; session: string }> {
  nextId += 1n;
  const id = user.id ?? String(nextId);
  await upsertUser(t.ctx.db, {
    id,
    username: user.username ?? `user${id.slice(-4)}`,
    globalName: null,
    avatar: null,
  });
  return { id, session: await createSession(t.ctx.db, id, 'web') };
}
