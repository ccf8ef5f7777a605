import type { TestProject } from 'vitest/node';
import { startDemoServer } from './demo-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    simulatorUrl: string;
  }
}

/**
 * Starts the server in demo mode on free ports, as `npm start` does (the web build and the server bundle
 * brought up to date, then the bundle run), and shares its URLs with the tests.
 */
export default async function setup(project: TestProject) {
  const server = await startDemoServer(
    {
      ...process.env,
      NODE_ENV: 'test',
      // E2E_LOG_LEVEL=info with E2E_SERVER_LOG=<file> keeps the server's whole log when a journey needs a look.
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Every journey signs in from this one address, several at once: far above what one person does.
      RATE_LIMIT_ANONYMOUS: '1000',
      RATE_LIMIT_USER: '10000',
      // The same crowd would queue behind the simulated platforms' per-route buckets (OAuth token exchanges,
      // 10 per 10 s per address); the strict limits have their own tests.
      SIMULATOR_LIMITS: 'lax',
      // The product's VRChat pacer 10 times faster (10 requests/s, burst 30; the lax simulator grants that): the
      // journeys are about what the bot does, and at VRChat's real pace each awaited effect took 10-20 s. The pacing
      // itself is tested against the strict simulator in the server suite (vrchat-limits, sync-under-limits).
      VRCHAT_TIME_SCALE: '10',
    },
    process.env.E2E_SERVER_LOG,
  );
  project.provide('baseUrl', server.baseUrl);
  project.provide('simulatorUrl', server.simulatorUrl);
  return server.stop;
}
