import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import type { startOwnSimulator } from '../src/demo.js';
import { callSimulatorControl, waitFor } from '../src/platforms/testing.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import { type CountingProxy, countingProxy } from './counting-proxy.js';
import type { createScratchDatabase } from './db.js';
import { freePort, type ServerProcess, sharedBackends, startServerProcess } from './server-process.js';

const adminUrl = process.env.DATABASE_URL;
const ADMIN = '1200000000000000001';
const hangout = seedGuildIds.hangout.id;
const SECRET_KEY = 'api-process-reads-secret-key-000000';

/**
 * Issue #31: an `api` process answers server reads (the server list, a server's settings and roles) from the
 * server snapshot the gateway holder writes, and never calls Discord for them.
 */
describe.skipIf(!adminUrl)('an api process beside a bot,worker process', () => {
  let sim: Awaited<ReturnType<typeof startOwnSimulator>>;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let proxy: CountingProxy;
  let database: Database;
  let bot: ServerProcess;
  let api: ServerProcess;
  let cookie: string;

  const control = (method: string, path: string, body?: unknown) =>
    callSimulatorControl(sim.sim.url, method, path, body);
  const get = async (path: string) => {
    const res = await fetch(`${api.url}${path}`, { headers: { cookie } });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON answers ad hoc
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sim, scratch, env } = await sharedBackends(adminUrl as string, SECRET_KEY));
    proxy = await countingProxy(sim.sim.url);
    bot = await startServerProcess({
      ...env,
      INSTANCE_NAME: 'gateway',
      PROCESS_ROLES: 'bot,worker',
      HEALTH_PORT: String(await freePort()),
    });
    api = await startServerProcess({
      ...env,
      SIMULATOR_URL: proxy.url,
      INSTANCE_NAME: 'api',
      PROCESS_ROLES: 'api',
    });
    database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
    await upsertUser(database.db, { id: ADMIN, username: 'demo_admin', globalName: null, avatar: null });
    cookie = `vrclink_session=${await createSession(database.db, ADMIN, 'web')}`;
    // The gateway holder has connected and filled the member mirror of every server, and the api process
    // lists the server (until then it answers that the server is not loaded yet).
    await waitFor(async () => {
      const { rows } = await database.executeSql(
        'select count(*) filter (where filled_at is null) as unfilled, count(*) as synced from guild_member_sync',
      );
      const r = rows[0] as { unfilled: string; synced: string };
      return Number(r.synced) > 0 && Number(r.unfilled) === 0;
    }, 60_000);
    await waitFor(async () => {
      const res = await get('/api/guilds');
      return res.status === 200 && res.body.some((g: { id: string }) => g.id === hangout);
    }, 60_000);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), bot?.stop()]);
    await proxy?.close();
    await database?.close();
    await scratch?.drop();
    await sim?.sim.close();
  }, 60_000);

  it('loads the server list and a server’s settings without one Discord call', async () => {
    proxy.calls.length = 0;
    const guilds = await get('/api/guilds');
    expect(guilds.status).toBe(200);
    expect(guilds.body.map((g: { id: string }) => g.id)).toContain(hangout);
    for (const path of [
      `/api/guilds/${hangout}`,
      `/api/guilds/${hangout}/guild_roles`,
      `/api/guilds/${hangout}/guest_roles`,
      `/api/guilds/permissions/${hangout}`,
      `/api/guilds/logging/${hangout}/config`,
      `/api/guilds/${hangout}/sync`,
      `/api/members/${hangout}`,
      `/api/guilds/channels/${hangout}/channels`,
      `/api/guilds/${hangout}/setup_check`,
    ]) {
      const res = await get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    // Loaded again, as a second page load would.
    expect((await get('/api/guilds')).status).toBe(200);
    expect(proxy.calls).toEqual([]);
  });

  it('answers a role renamed in Discord with its new name', async () => {
    const roles = await get(`/api/guilds/${hangout}/guild_roles`);
    const role = (roles.body.guildRoles as { id: string; name: string }[])[0];
    expect(role).toBeDefined();
    const renamed = `${role?.name} (renamed)`;
    const res = await control('PATCH', `/discord/guilds/${hangout}/roles/${role?.id}`, { name: renamed });
    expect(res.status).toBe(200);
    proxy.calls.length = 0;
    await waitFor(async () => {
      const now = await get(`/api/guilds/${hangout}/guild_roles`);
      return (now.body.guildRoles as { id: string; name: string }[]).some(
        (r) => r.id === role?.id && r.name === renamed,
      );
    }, 30_000);
    expect(proxy.calls).toEqual([]);
  });

  it('lists a text channel made in Discord a moment ago in the logging dialog, still without Discord', async () => {
    const made = await control('POST', `/discord/guilds/${hangout}/channels`, { name: 'fresh-log' });
    expect(made.status).toBe(201);
    proxy.calls.length = 0;
    await waitFor(async () => {
      const now = await get(`/api/guilds/channels/${hangout}/channels`);
      return (now.body.channels as { name: string }[]).some((c) => c.name === 'fresh-log');
    }, 30_000);
    expect(proxy.calls).toEqual([]);
  });
});
