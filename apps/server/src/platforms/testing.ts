import { type SimulatorOptions, vrchatAccounts } from '@vrclink/simulator';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { LAX_LIMITS, startOwnSimulator } from '../demo.js';
import { parseEnv } from '../env.js';
import { type AppConfig, resolveConfig } from '../kernel/config.js';

/** Test support for the adapter tests: a fresh simulator with the demo credentials (not used by product code). */
export interface SimHarness {
  url: string;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** Calls the simulator's control API (JSON in, JSON out). */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** How often the seeded bot account logged in to VRChat within the simulator's login window. */
  vrchatBotLogins(): Promise<number | undefined>;
  close(): Promise<void>;
}

/**
 * The simulator for tests about something other than the platforms' rate limits: they pace VRChat calls at
 * 200/s (test/app.ts) to stay fast, which the strict default budget (about 1/s) would block for minutes, and
 * sign many people in through Discord's OAuth token route from one address, which Discord's per-route buckets
 * (10 per 10 s) would slow to a crawl. Tests about the limits start a strict simulator instead (the default of
 * `createTestApp` and `startSimHarness`); a test asks for this one explicitly, saying why.
 */
export const LAX_SIMULATOR: SimulatorOptions = LAX_LIMITS;

export async function startSimHarness(options: SimulatorOptions = {}): Promise<SimHarness> {
  const demo = await startOwnSimulator(0, options);
  const control: SimHarness['control'] = (method, path, body) =>
    callSimulatorControl(demo.sim.url, method, path, body);
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SECRET_KEY: 'x'.repeat(32) });
  return {
    url: demo.sim.url,
    config: resolveConfig(env, demo.endpoints),
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    control,
    async vrchatBotLogins() {
      const { body } = await control('GET', '/vrchat/sessions');
      return (body as { accounts: { username: string; loginsInWindow: number }[] }).accounts.find(
        (a) => a.username === vrchatAccounts.bot.username,
      )?.loginsInWindow;
    },
    close: () => demo.sim.close(),
  };
}

/** Calls a simulator's control API (JSON in, JSON out). */
export async function callSimulatorControl(
  simulatorUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${simulatorUrl}/control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Resolves once `check` answers truthy (polled every 5 ms). */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 5000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
