import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { resolveConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import type { ZodApp } from '../src/http/types.js';
import { createSession } from '../src/modules/auth/session.service.js';
import { upsertUser } from '../src/modules/auth/user.service.js';
import { openTestDatabase } from './db.js';

export interface TestApp {
  app: ZodApp;
  ctx: AppContext;
  simulatorUrl?: string;
  /** Sends a request as a browser would: with a session cookie (if given) and a matching XSRF pair. */
  inject(opts: InjectOptions & { session?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

const XSRF = 'test-xsrf-token';

/** Builds the real app on a fresh database; with `simulator`, against a fresh simulator too. */
export async function createTestApp(
  opts: { simulator?: boolean; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SECRET_KEY: 'x'.repeat(32), ...opts.env });
  const demo = opts.simulator ? await (await import('../src/demo.js')).startDemoSimulator(0) : undefined;
  const config = resolveConfig(env, demo?.endpoints);
  const database = await openTestDatabase();
  const { app, ctx } = await buildApp({ config, database, logger: false, webDist: null });
  await app.ready();
  return {
    app,
    ctx,
    simulatorUrl: demo?.sim.url,
    inject({ session, ...req }) {
      const cookies: Record<string, string> = {
        'XSRF-TOKEN': XSRF,
        ...((req.cookies as Record<string, string>) ?? {}),
      };
      if (session) cookies.vrclink_session = session;
      return app.inject({ ...req, cookies, headers: { 'x-xsrf-token': XSRF, ...(req.headers ?? {}) } });
    },
    async close() {
      await app.close();
      await database.close();
      await demo?.sim.close();
    },
  };
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
