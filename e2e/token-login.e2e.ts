import '../apps/server/src/polyfills.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { parseEnv } from '../apps/server/src/env.js';
import type { ZodApp } from '../apps/server/src/http/types.js';
import { resolveConfig } from '../apps/server/src/kernel/config.js';
import { createContext } from '../apps/server/src/kernel/context.js';
import { issueLoginToken } from '../apps/server/src/wings/identity/index.js';
import { useBrowser } from './browser';

const browser = useBrowser();

/**
 * The bot's /login tokens live in the server's database, which the shared demo server keeps to itself;
 * this file serves the built web app from its own server (same code, in-memory database) to issue them.
 */
let app: ZodApp;
let closeDatabase: () => Promise<void>;
let origin: string;
let issueToken: (username: string) => Promise<string>;
let nextId = 1800000000000000000n;

beforeAll(async () => {
  const env = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'e2e-token-login-secret-key-0123456789',
  });
  const database = await openDatabase({ dataDir: 'memory://' });
  const ctx = createContext({ config: resolveConfig(env), database, log: pino({ level: 'silent' }) });
  app = (await buildApp({ ctx })).app;
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
  issueToken = (username) => {
    nextId += 1n;
    return issueLoginToken(ctx.db, { id: String(nextId), username, globalName: null, avatar: null });
  };
  closeDatabase = () => database.close();
});
afterAll(async () => {
  await app?.close();
  await closeDatabase?.();
});

describe('token login link (/discord_auth?token=)', () => {
  it('names the account and signs in only when Sign in is pressed', async () => {
    const { page } = browser;
    const token = await issueToken('linkholder');
    await page.goto(`${origin}/discord_auth?token=${token}`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Sign in as @linkholder?' }).waitFor();
    expect((await page.request.get(`${origin}/api/user`)).status()).toBe(401);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/profile`);
    await page.getByText('@linkholder').first().waitFor();
    expect((await (await page.request.get(`${origin}/api/user`)).json()).username).toBe('linkholder');
  });

  it('says the link is used up when it was already redeemed, and signs nobody in', async () => {
    const { page } = browser;
    const token = await issueToken('usedonce');
    // Signed out first: a signed-in browser's XSRF token is its session's own (http/auth.ts), not any pair.
    await page.context().clearCookies();
    const xsrf = 'e2e-xsrf';
    const redeemed = await page.request.get(`${origin}/api/discord_auth?token=${token}`, {
      headers: { 'X-XSRF-TOKEN': xsrf, Cookie: `XSRF-TOKEN=${xsrf}` },
    });
    expect(redeemed.status()).toBe(200);
    await page.context().clearCookies();

    await page.goto(`${origin}/discord_auth?token=${token}`, { waitUntil: 'networkidle' });
    await page
      .getByText('This login link was already used: each link signs in only once.', { exact: false })
      .waitFor();
    expect(page.url()).toBe(`${origin}/discord_auth?token=${token}`);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect((await page.request.get(`${origin}/api/user`)).status()).toBe(401);
  });
});
