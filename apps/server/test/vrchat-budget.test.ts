import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import type { startOwnSimulator } from '../src/demo.js';
import { callSimulatorControl, waitFor } from '../src/platforms/testing.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import type { createScratchDatabase } from './db.js';
import { type ServerProcess, sharedBackends, startServerProcess } from './server-process.js';

const adminUrl = process.env.DATABASE_URL;
const SECRET_KEY = 'vrchat-budget-secret-key-000000000000';
/** Strict VRChat (≈ 1 request/s per account, burst 5, blocks that double) five times faster. */
const TIME_SCALE = 5;
const RATE_LIMITED = /^VRChat is rate limiting requests\. Try again in \d+ seconds?\.$/;

type Counters = { requests: number; rateLimited: number };

/**
 * One VRChat budget per bot account, shared by every process (issue #30): two server processes on one
 * PostgreSQL database, against the strict VRChat simulator (time-scaled), search VRChat at once and meet
 * no 429; a 429 one of them meets holds the other too, so nobody probes inside VRChat's block.
 */
describe.skipIf(!adminUrl)('two server processes share one VRChat budget', () => {
  let sim: Awaited<ReturnType<typeof startOwnSimulator>>;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let a: ServerProcess;
  let b: ServerProcess;
  let members = 0;

  const control = (method: string, path: string, body?: unknown) =>
    callSimulatorControl(sim.sim.url, method, path, body);
  const counters = async () => (await control('GET', '/vrchat/counters')).body as Counters;
  /** A member of their own (each member's search share is small: 3 at once). */
  const member = async () => {
    members += 1;
    const id = String(1300000000000000000n + BigInt(members));
    await upsertUser(database.db, { id, username: `budget${members}`, globalName: null, avatar: null });
    return `vrclink_session=${await createSession(database.db, id, 'web')}`;
  };
  const search = async (proc: ServerProcess, query: string) => {
    const res = await fetch(`${proc.url}/api/users/search?query=${query}`, {
      headers: { cookie: await member() },
    });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  };

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sim, scratch, env } = await sharedBackends(adminUrl as string, SECRET_KEY, { timeScale: TIME_SCALE }));
    const both = { ...env, VRCHAT_TIME_SCALE: String(TIME_SCALE) };
    [a, b] = await Promise.all([
      startServerProcess({ ...both, INSTANCE_NAME: 'budget-a' }),
      startServerProcess({ ...both, INSTANCE_NAME: 'budget-b' }),
    ]);
    database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
    await sim?.sim.close();
  }, 60_000);

  it('searching VRChat at once from both processes draws on one budget: every search answered, no 429', async () => {
    // Both logged in (or waiting on the shared login) before the count starts.
    for (const proc of [a, b]) expect((await search(proc, 'warmup')).status).toBe(200);
    await control('DELETE', '/vrchat/counters');
    // More at once than either process's own burst, twice what VRChat lets through at once.
    const answers = await Promise.all(
      [a, b].flatMap((proc, p) => Array.from({ length: 8 }, (_, i) => search(proc, `both${p}x${i}`))),
    );
    expect(answers.map((r) => `${r.status} ${r.body.message ?? ''}`)).toEqual(answers.map(() => '200 '));
    const seen = await counters();
    expect(seen.requests).toBeGreaterThanOrEqual(16);
    expect(seen.rateLimited).toBe(0);
  }, 120_000);

  it("a 429 one process meets holds the other: it refuses at once instead of probing VRChat's block", async () => {
    // VRChat's budget nearly gone (its bucket now holds one request) and a long block when spent.
    await control('PATCH', '/vrchat/config', {
      rate: { capacity: 1, perSecond: 0.001, blockSeconds: 600, retryAfter: 'always' },
    });
    await control('DELETE', '/vrchat/counters');
    // Demo mode has two bot accounts, each with its own budget: searches from the first process until VRChat
    // has answered each account with a 429.
    const seen: string[] = [];
    await waitFor(async () => {
      const { status, body } = await search(a, 'spend');
      const now = await counters();
      seen.push(
        `${status} ${body.message ?? ''} (VRChat: ${now.requests} requests, ${now.rateLimited} 429s)`,
      );
      return now.rateLimited >= 2;
    }, 60_000).catch((err) => {
      throw new Error(
        `VRChat never answered both accounts 429; the last of ${seen.length} searches saw:\n${seen.slice(-20).join('\n')}`,
        {
          cause: err,
        },
      );
    });
    const before = await counters();
    const accounts = Object.values((before as Counters & { byAccount: Record<string, Counters> }).byAccount);
    expect(accounts.map((c) => c.rateLimited)).toEqual([1, 1]);
    // The other process never met those 429s: it learns the pauses from the shared budgets.
    const held = await search(b, 'held');
    expect(held.status).toBe(503);
    expect(held.body.message).toMatch(RATE_LIMITED);
    expect((await search(b, 'held2')).body.message).toMatch(RATE_LIMITED);
    expect((await search(a, 'again')).body.message).toMatch(RATE_LIMITED);
    // Nobody sent anything while VRChat blocks the accounts (a call would double the block).
    expect(await counters()).toMatchObject({ requests: before.requests, rateLimited: 2 });
  }, 120_000);
});
