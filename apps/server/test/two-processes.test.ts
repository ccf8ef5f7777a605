import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import type { startOwnSimulator } from '../src/demo.js';
import { callSimulatorControl, waitFor } from '../src/platforms/testing.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { SESSION_CACHE_TTL_MS } from '../src/wings/identity/auth/session-cache.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import type { createScratchDatabase } from './db.js';
import { type ServerProcess, sharedBackends, signedInHeaders, startServerProcess } from './server-process.js';

const adminUrl = process.env.DATABASE_URL;
const ADMIN = '1200000000000000001';
const hangout = seedGuildIds.hangout.id;
const SECRET_KEY = 'two-processes-secret-key-0000000000';

/**
 * PROCESS_ROLES topology on one PostgreSQL database: two processes with every role against one
 * simulated Discord + VRChat. Exactly one holds the gateway; the other serves the same sessions and
 * takes the gateway over when the holder dies.
 */
describe.skipIf(!adminUrl)('two server processes on one PostgreSQL database', () => {
  let sim: Awaited<ReturnType<typeof startOwnSimulator>>;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let a: ServerProcess;
  let b: ServerProcess;
  let cookie: string;

  const control = (method: string, path: string, body?: unknown) =>
    callSimulatorControl(sim.sim.url, method, path, body);
  const gatewaySessions = async () =>
    ((await control('GET', '/discord/gateway')).body as { sessions: unknown[] }).sessions.length;
  const get = async (proc: ServerProcess, path: string) => {
    const res = await fetch(`${proc.url}${path}`, { headers: { cookie } });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON answers ad hoc
    return { status: res.status, body: (await res.json()) as any };
  };
  const post = async (proc: ServerProcess, path: string) => {
    const res = await fetch(`${proc.url}${path}`, {
      method: 'POST',
      headers: signedInHeaders(SECRET_KEY, cookie.slice('vrclink_session='.length)),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON answers ad hoc
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sim, scratch, env } = await sharedBackends(adminUrl as string, SECRET_KEY));
    a = await startServerProcess({ ...env, INSTANCE_NAME: 'proc-a' });
    // The first process holds the gateway before the second one starts, so the test knows which one.
    await waitFor(async () => (await gatewaySessions()) === 1, 30_000);
    b = await startServerProcess({ ...env, INSTANCE_NAME: 'proc-b' });
    database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
    await upsertUser(database.db, { id: ADMIN, username: 'demo_admin', globalName: null, avatar: null });
    cookie = `vrclink_session=${await createSession(database.db, ADMIN, 'web')}`;
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
    await sim?.sim.close();
  }, 60_000);

  it('lets only one of them hold the gateway', async () => {
    await new Promise((r) => setTimeout(r, 3000));
    expect(await gatewaySessions()).toBe(1);
    expect(a.output()).not.toMatch(/EADDRINUSE/);
    expect(b.output()).not.toMatch(/EADDRINUSE/);
  });

  it('serves the same sessions on both', async () => {
    for (const proc of [a, b]) {
      const res = await get(proc, '/api/user');
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(ADMIN);
    }
  });

  it('ends a session in the other process too when the user logs out in one (session cache, NOTIFY)', async () => {
    const session = `vrclink_session=${await createSession(database.db, ADMIN, 'web')}`;
    const user = (proc: ServerProcess) =>
      fetch(`${proc.url}/api/user`, { headers: { cookie: session } }).then((r) => r.status);
    // Both processes now hold the session in their caches.
    expect([await user(a), await user(b)]).toEqual([200, 200]);
    const out = await fetch(`${a.url}/api/logout`, {
      headers: signedInHeaders(SECRET_KEY, session.slice('vrclink_session='.length)),
    });
    expect(out.status).toBeLessThan(300);
    expect(await user(a)).toBe(401);
    // Sooner than the cache's TTL (SESSION_CACHE_TTL_MS, 10 s): only the notification can have done it.
    await waitFor(async () => (await user(b)) === 401, SESSION_CACHE_TTL_MS / 2);
    // The logout ended every session of the user: the other tests sign in again.
    cookie = `vrclink_session=${await createSession(database.db, ADMIN, 'web')}`;
  });

  it('shows the scheduled tasks of both on /admin, and Run now reaches the other process', async () => {
    const tasks = await waitFor(async () => {
      const res = await get(a, '/api/admin/scheduled-tasks/get_tasks');
      const containers = new Set((res.body.tasks as { container: string }[]).map((t) => t.container));
      return containers.has('proc-a') && containers.has('proc-b') ? res.body.tasks : null;
    }, 20_000);
    const target = (tasks as { container: string; method: string; lastRun: string | null }[]).find(
      (t) => t.container === 'proc-b',
    );
    expect(target).toBeDefined();
    const ran = await post(a, `/api/admin/scheduled-tasks/run/vrclink/proc-b/${target?.method}`);
    expect(ran.status).toBe(200);
    await waitFor(async () => {
      const res = await get(b, '/api/admin/scheduled-tasks/get_tasks');
      const now = (res.body.tasks as { container: string; method: string; lastRun: string | null }[]).find(
        (t) => t.container === 'proc-b' && t.method === target?.method,
      );
      return now?.lastRun && now.lastRun !== target?.lastRun;
    }, 15_000);
  });

  it('hands the gateway to the other process within 30 s when the holder dies, losing no event', async () => {
    a.kill();
    // Events while nobody holds the gateway: the takeover's reconciliation must catch them.
    const joined = await control('POST', `/discord/guilds/${hangout}/members`, {
      username: 'took.over.newcomer',
    });
    expect(joined.status).toBe(201);
    const started = Date.now();
    await waitFor(async () => (await gatewaySessions()) === 1, 30_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    const found = await waitFor(async () => {
      const res = await get(b, `/api/members/${hangout}?search=took.over&searchBy=DiscordName&page=1`);
      return res.status === 200 && res.body.totalCount === 1 ? res.body : null;
    }, 15_000);
    expect(found.results[0].username).toBe('took.over.newcomer');
  });
});
