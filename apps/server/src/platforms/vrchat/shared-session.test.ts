import { vrchatSeed } from '@vrclink/simulator';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, openTestDatabase } from '../../../test/db.js';
import { type Database, openDatabase } from '../../db/client.js';
import { platformLoginPauses, platformSessions } from '../../db/schema/index.js';
import { startPlatforms } from '../start.js';
import { LAX_SIMULATOR, type SimHarness, startSimHarness } from '../testing.js';
import { createVrchatPlatform, dbSessionStore, type VrchatPlatform, vrchatSessionName } from './index.js';
import { createMutex } from './session-store.js';

const fast = { ratePerSecond: 200, burst: 20, backoffBaseMs: 5, backoffMaxMs: 40 };
const aurora = vrchatSeed.userIds['Aurora Skye'];
const adminUrl = process.env.DATABASE_URL;

/**
 * Two adapters on one database (the pair `databases()` gives) share one VRChat session: the first login is
 * the only one, and after the session expires one of them logs in again and the other uses that session.
 */
function sharedSessionSuite(databases: () => [Database, Database]) {
  let sim: SimHarness;
  const open: VrchatPlatform[] = [];

  /** Basic (password) logins sent by every adapter of the suite. */
  let basicLogins = 0;
  const countingFetch: typeof fetch = async (input, init) => {
    if ((input as Request).headers?.get('authorization')?.startsWith('Basic ')) basicLogins += 1;
    return fetch(input, init);
  };
  const make = (database: Database, overrides: Partial<Parameters<typeof createVrchatPlatform>[0]> = {}) => {
    const platform = createVrchatPlatform({
      config: sim.config.vrchat,
      sessionStore: dbSessionStore(database.db, sim.config.secretKey, 'vrchat', {
        databaseUrl: database.url,
      }),
      log: sim.log,
      pacer: fast,
      fetch: countingFetch,
      ...overrides,
    });
    open.push(platform);
    return platform;
  };
  const pair = () => {
    const [a, b] = databases();
    return [make(a), make(b)] as const;
  };

  beforeAll(async () => {
    // Lax: VRChat paced at 200/s here (strict allows ~1/s); not a test of the limits.
    sim = await startSimHarness(LAX_SIMULATOR);
  });
  beforeEach(async () => {
    basicLogins = 0;
    await databases()[0].db.delete(platformLoginPauses);
    await databases()[0].db.delete(platformSessions);
    await sim.control('POST', '/vrchat/reset-sessions');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('makes one login between two adapters starting without a stored session', async () => {
    const [a, b] = pair();
    const states = await Promise.all([a.start(), b.start()]);
    expect(states.map((s) => s.status)).toEqual(['ok', 'ok']);
    expect(await sim.vrchatBotLogins()).toBe(1);
  });

  it('makes no login at start when a valid session is stored', async () => {
    const first = make(databases()[0]);
    await first.start();
    await first.close();
    await sim.control('POST', '/vrchat/reset-sessions');

    const [a, b] = pair();
    const states = await Promise.all([a.start(), b.start()]);
    expect(states.map((s) => s.status)).toEqual(['ok', 'ok']);
    expect(await sim.vrchatBotLogins()).toBe(0);
  });

  it('pauses every adapter after one failed login: a wrong password is sent once, not once per process', async () => {
    const wrong = {
      config: { ...sim.config.vrchat, password: 'not-the-password' },
      login: { cooldownMs: 60_000 },
    };
    const [one, two] = databases();
    const a = make(one, wrong);
    expect((await a.start()).status).toBe('login_failed');
    expect(basicLogins).toBe(1);
    // Another process, started later, waits out the same pause and says why.
    const b = make(two, wrong);
    const err = await b.getUser(aurora).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/paused until .*Invalid Username\/Email or Password/);
    expect(basicLogins).toBe(1);
    // Once a login succeeds, the pause is gone for everyone.
    const c = make(one);
    expect((await c.start()).status).toBe('ok');
    expect(await databases()[1].db.select().from(platformLoginPauses)).toEqual([]);
  });

  it('replaces an expired session with one login that both adapters use', async () => {
    const [a, b] = pair();
    await Promise.all([a.start(), b.start()]);
    expect(await sim.vrchatBotLogins()).toBe(1);

    await sim.control('POST', '/vrchat/invalidate-sessions', {});
    // The adapter that logged in at start is in its login cooldown: the other one logs in for both.
    const users = await Promise.all([a.getUser(aurora), b.getUser(aurora)]);
    expect(users.map((u) => u?.id)).toEqual([aurora, aurora]);
    expect(await sim.vrchatBotLogins()).toBe(2);
    expect([a.state().status, b.state().status]).toEqual(['ok', 'ok']);
  });

  it('lets the adapter in its login cooldown wait for a login the other one starts only later', async () => {
    // The order a busy machine may give: the adapter that cannot log in yet gets its 401 first.
    let waiting: () => void = () => {};
    const waits = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const log = pino(
      { level: 'info' },
      { write: (line: string) => (line.includes('waiting for another process') ? waiting() : undefined) },
    );
    const [one, two] = databases();
    const a = make(one, { log });
    await a.start();
    const b = make(two);
    await b.start();
    expect(await sim.vrchatBotLogins()).toBe(1);

    await sim.control('POST', '/vrchat/invalidate-sessions', {});
    const first = a.getUser(aurora);
    // Without the wait, a's call fails here: "VRChat login is paused …; a login was attempted moments ago".
    await Promise.race([waits, first]);
    expect((await b.getUser(aurora))?.id).toBe(aurora);
    expect((await first)?.id).toBe(aurora);
    expect(await sim.vrchatBotLogins()).toBe(2);
    expect([a.state().status, b.state().status]).toEqual(['ok', 'ok']);
  });

  // Reports disagree whether VRChat refuses a session used from another address with 401 or 403
  // (platforms.md A.4); the simulator binds sessions to the client address and answers either.
  describe.each([401, 403] as const)('sessions bound to the client address (refused with %i)', (binding) => {
    beforeEach(async () => {
      await sim.control('PATCH', '/vrchat/config', { sessionAddressBinding: binding });
    });
    afterEach(async () => {
      await sim.control('PATCH', '/vrchat/config', { sessionAddressBinding: 'off' });
    });

    /** N rounds of calls from every adapter at once; every call must succeed. */
    const rounds = async (adapters: VrchatPlatform[], n: number) => {
      for (let i = 0; i < n; i++) {
        const users = await Promise.all(adapters.flatMap((p) => [p.getUser(aurora), p.getUser(aurora)]));
        expect(users.map((u) => u?.id)).toEqual(users.map(() => aurora));
      }
    };

    it('two adapters leaving from different addresses, on one stored session, both keep working with one login each', async () => {
      const [one, two] = databases();
      const a = make(one, { localAddress: '127.0.0.1' });
      const b = make(two, { localAddress: '127.0.0.2' });
      expect((await a.start()).status).toBe('ok');
      // b finds a's session refused from its address: it logs in once, and a keeps its own session.
      expect((await b.start()).status).toBe('ok');
      await rounds([a, b], 10);
      expect(await sim.vrchatBotLogins()).toBe(2);
      expect([a.state().status, b.state().status]).toEqual(['ok', 'ok']);
    });

    it('after both sessions expire, each address logs in once more: no login loop between them', async () => {
      const [one, two] = databases();
      // No login cooldown: only the sharing itself may keep the logins bounded here.
      const login = { cooldownMs: 1 };
      const a = make(one, { localAddress: '127.0.0.1', login });
      const b = make(two, { localAddress: '127.0.0.2', login });
      await a.start();
      await b.start();
      await rounds([a, b], 3);
      expect(await sim.vrchatBotLogins()).toBe(2);
      await sim.control('POST', '/vrchat/invalidate-sessions', {});
      await rounds([a, b], 10);
      expect(await sim.vrchatBotLogins()).toBe(4);
      expect([a.state().status, b.state().status]).toEqual(['ok', 'ok']);
    });

    it('each configured address keeps its own stored session: restarts make no new login', async () => {
      const [one, two] = databases();
      const at = (database: Database, address: string) =>
        make(database, {
          localAddress: address,
          sessionStore: dbSessionStore(database.db, sim.config.secretKey, vrchatSessionName(address), {
            databaseUrl: database.url,
          }),
        });
      for (let restart = 0; restart < 3; restart++) {
        const a = at(one, '127.0.0.1');
        const b = at(two, '127.0.0.2');
        expect((await Promise.all([a.start(), b.start()])).map((s) => s.status)).toEqual(['ok', 'ok']);
        await rounds([a, b], 3);
        await Promise.all([a.close(), b.close()]);
      }
      expect(await sim.vrchatBotLogins()).toBe(2);
    });

    it('replaces a session refused from this address with exactly one login, however many callers wait', async () => {
      const [one, two] = databases();
      // The stored session was made from another address (the server moved, or another egress).
      const before = make(one, { localAddress: '127.0.0.2' });
      expect((await before.start()).status).toBe('ok');
      await before.close();
      const moved = make(two, { localAddress: '127.0.0.1' });
      const users = await Promise.all(Array.from({ length: 8 }, () => moved.getUser(aurora)));
      expect(users.map((u) => u?.id)).toEqual(users.map(() => aurora));
      expect(await sim.vrchatBotLogins()).toBe(2);
      expect(basicLogins).toBe(2);
      expect(moved.state().status).toBe('ok');
    });
  });

  it('stores the session of a configured VRCHAT_LOCAL_ADDRESS under its own name, logging in from there', async () => {
    await sim.control('PATCH', '/vrchat/config', { sessionAddressBinding: 403 });
    const [one] = databases();
    const config = { ...sim.config, vrchat: { ...sim.config.vrchat, localAddress: '127.0.0.2' } };
    const platforms = await startPlatforms({ config, database: one, log: sim.log, vrchatPacer: fast });
    try {
      expect((await platforms.vrchat.getUser(aurora))?.id).toBe(aurora);
      expect(platforms.vrchat.state().status).toBe('ok');
      const names = await one.db.select({ name: platformSessions.name }).from(platformSessions);
      expect(names).toEqual([{ name: 'vrchat@127.0.0.2' }]);
      expect(await sim.vrchatBotLogins()).toBe(1);
    } finally {
      await platforms.close();
      await sim.control('PATCH', '/vrchat/config', { sessionAddressBinding: 'off' });
    }
  });
}

describe('VRChat session shared by two adapters on one database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  sharedSessionSuite(() => [database, database]);
});

describe.skipIf(!adminUrl)('VRChat session shared by two PostgreSQL connection pools (two processes)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl as string);
    one = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
    two = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await scratch?.drop();
  });
  sharedSessionSuite(() => [one, two]);
});

describe('createMutex', () => {
  it('runs one function at a time, in order, and carries on after a failure', async () => {
    const lock = createMutex();
    const log: string[] = [];
    const step = (name: string, fail = false) =>
      lock(async () => {
        log.push(`${name}:start`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`${name}:end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a'), step('b', true), step('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });
});
