import { connect, type Socket } from 'node:net';
import { seedGuildIds } from '@vrclink/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import type { startOwnSimulator } from '../src/demo.js';
import { DATABASE_UNAVAILABLE } from '../src/http/errors.js';
import { callSimulatorControl } from '../src/platforms/testing.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import type { createScratchDatabase } from './db.js';
import { type ServerProcess, sharedBackends, signedInHeaders, startServerProcess } from './server-process.js';

const adminUrl = process.env.DATABASE_URL;
const ADMIN = '1200000000000000001';
const hangout = seedGuildIds.hangout.id;
const { Guest, Verified } = seedGuildIds.hangout.roles;
/** The processes' shutdown deadline (SHUTDOWN_TIMEOUT_SECONDS): a SIGTERM must end each within it + 2 s. */
const SHUTDOWN_SECONDS = 3;

/** Polls `check` every 250 ms until it answers truthy; answers it and how long it took. */
async function poll<T>(
  check: () => Promise<T>,
  timeoutMs: number,
): Promise<{ value: NonNullable<T>; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return { value: value as NonNullable<T>, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The test's own connection; the terminations end it too, which it expects. */
async function connectTo(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * A request to `url` whose head the server has taken (it answered 100 Continue) and whose body is not sent
 * yet: in flight until `finish()`.
 */
async function requestInFlight(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  socket.on('error', () => {}); // cut at the shutdown deadline: expected
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const continued = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (received.includes('100 Continue')) resolve();
    });
    socket.once('close', () => reject(new Error(`closed before 100 Continue: ${received}`)));
  });
  const body = '{"token":"fault-suite-shutdown"}';
  socket.write(
    `POST /api/sdk-login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await continued;
  return { closed, finish: () => socket.write(body), received: () => received };
}

/** A keep-alive connection that asked for `/api/health` and got its whole answer: open and idle. */
async function idleConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const [head, body] = received.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? Number.NaN);
      if (body !== undefined && body.length >= length) resolve();
    });
    socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  });
  return { closed };
}

/**
 * The fault suite (PostgreSQL, two processes with every role, one simulated Discord + VRChat): database
 * connections terminated under them, and a process killed (-9) in the middle of a sync. Each case measures
 * its recovery and counts lost and doubled actions; the closing note prints them.
 */
describe.skipIf(!adminUrl)('fault suite: two processes on PostgreSQL', () => {
  let sim: Awaited<ReturnType<typeof startOwnSimulator>>;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: pg.Client;
  let admin: pg.Client;
  const procs: Record<string, ServerProcess> = {};
  let cookie: string;
  const note: string[] = [];

  const control = async (method: string, path: string, body?: unknown) =>
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the simulator's JSON ad hoc
    (await callSimulatorControl(sim.sim.url, method, path, body)) as { status: number; body: any };
  const sessionIds = async () =>
    ((await control('GET', '/discord/gateway')).body.sessions as { id: string }[]).map((s) => s.id);
  const alive = (p: ServerProcess) => p.child.exitCode === null && p.child.signalCode === null;
  const query = async (text: string, values?: unknown[]) => (await db.query(text, values)).rows;
  /** A member who joins through Discord, seen by the process's member mirror through the gateway. */
  const joinedAndMirrored = async (via: ServerProcess, username: string, timeoutMs: number) => {
    const joined = await control('POST', `/discord/guilds/${hangout}/members`, { username });
    expect(joined.status).toBe(201);
    return poll(async () => {
      const res = await fetch(
        `${via.url}/api/members/${hangout}?search=${username}&searchBy=DiscordName&page=1`,
        {
          headers: { cookie },
        },
      );
      return res.ok && ((await res.json()) as { totalCount: number }).totalCount === 1;
    }, timeoutMs);
  };

  const dbName = () => new URL(scratch.url).pathname.slice(1);
  /** Terminates every connection of the processes (and the test's own, opened again when `reopen`). */
  const terminateAll = async (reopen = true) => {
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName()],
    );
    await db.end().catch(() => {});
    if (reopen) db = await connectTo(scratch.url);
  };
  /** The mirror lists Hangout's members with their roles as Discord does. */
  const mirrorMatchesDiscord = async () => {
    const state = await control('GET', `/discord/guilds/${hangout}`);
    const key = (userId: string, roles: string[]) => `${userId}:${[...roles].sort().join(',')}`;
    const discord = (state.body.members as { userId: string; roles: string[] }[])
      .map((m) => key(m.userId, m.roles))
      .sort();
    const rows = await query(
      'select user_id, role_ids from guild_members where guild_id = $1 and left_at is null',
      [hangout],
    );
    const mirror = rows.map((r) => key(r.user_id as string, r.role_ids as string[])).sort();
    return discord.join('|') === mirror.join('|');
  };

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sim, scratch, env } = await sharedBackends(adminUrl as string, 'fault-suite-secret-key-000000000000'));
    env.SHUTDOWN_TIMEOUT_SECONDS = String(SHUTDOWN_SECONDS);
    procs.a = await startServerProcess({ ...env, INSTANCE_NAME: 'fault-a' });
    await poll(async () => (await sessionIds()).length === 1, 30_000);
    procs.b = await startServerProcess({ ...env, INSTANCE_NAME: 'fault-b' });
    db = await connectTo(scratch.url);
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
    await upsertUser(database.db, { id: ADMIN, username: 'demo_admin', globalName: null, avatar: null });
    cookie = `vrclink_session=${await createSession(database.db, ADMIN, 'web')}`;
    await database.close();
  }, 180_000);

  afterAll(async () => {
    if (note.length > 0) console.log(`Fault suite, closing note:\n  ${note.join('\n  ')}`);
    // A process that ended on its own (not killed, not stopped by the SIGTERM case) shows why.
    for (const [key, p] of Object.entries(procs)) {
      if (p.child.exitCode !== null && p.child.exitCode !== 0)
        console.log(`Process ${key} exited with ${p.child.exitCode}:\n${p.output().slice(-4000)}`);
    }
    await Promise.all(Object.values(procs).map((p) => p.stop()));
    await db?.end().catch(() => {});
    await admin?.end();
    await scratch?.drop();
    await sim?.sim.close();
  }, 60_000);

  it('keeps exactly one connected gateway, and every process, through terminated database connections', async () => {
    const name = new URL(scratch.url).pathname.slice(1);
    for (let round = 1; round <= 2; round++) {
      const before = await sessionIds();
      expect(before).toHaveLength(1);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await db.end().catch(() => {});
      db = await connectTo(scratch.url);
      // A new gateway session (the holder gave its lock up with the connection), and only one.
      const back = await poll(async () => {
        const now = await sessionIds();
        return now.length === 1 && now[0] !== before[0];
      }, 30_000);
      // Connected means events arrive: a member joining now reaches the member mirror.
      const event = await joinedAndMirrored(procs.b, `fault.round${round}`, 30_000 - back.ms);
      expect(back.ms + event.ms).toBeLessThan(30_000);
      expect(await sessionIds()).toHaveLength(1);
      expect(alive(procs.a) && alive(procs.b)).toBe(true);
      note.push(
        `connections terminated (round ${round}): gateway back in ${back.ms} ms, events flowing after ${back.ms + event.ms} ms; processes exited: 0`,
      );
    }
  }, 90_000);

  it('keeps every process through member, role and guest-role churn while connections are terminated under it', async () => {
    const joined: string[] = [];
    const roles: string[] = [];
    const members = `/discord/guilds/${hangout}/members`;
    let terminations = 0;
    for (let i = 0; i < 12; i++) {
      // Joins (every third with the Guest role), role changes, new and deleted roles, leaves and bans.
      const member = await control('POST', members, {
        username: `churn.${i}`,
        roles: i % 3 === 0 ? [Guest] : [],
      });
      expect(member.status).toBe(201);
      joined.push(member.body.userId);
      const role = await control('POST', `/discord/guilds/${hangout}/roles`, { name: `Churn ${i}` });
      expect(role.status).toBe(201);
      roles.push(role.body.id);
      if (i >= 1) {
        await control('PUT', `${members}/${joined[i - 1]}/roles/${i % 2 ? Verified : Guest}`);
        await control('PUT', `${members}/${joined[i - 1]}/roles/${role.body.id}`);
      }
      if (i >= 2) await control('DELETE', `/discord/guilds/${hangout}/roles/${roles[i - 2]}`);
      if (i >= 3) {
        const gone = `${members}/${joined[i - 3]}`;
        await (i % 4 === 0 ? control('POST', `${gone}/ban`) : control('DELETE', gone));
      }
      // Both processes are storing those events now: cut every database connection under them.
      if (i % 3 === 2) {
        await terminateAll();
        terminations++;
      }
    }
    const settled = await poll(mirrorMatchesDiscord, 60_000);
    await poll(async () => (await sessionIds()).length === 1, 30_000);
    expect(alive(procs.a) && alive(procs.b)).toBe(true);
    note.push(
      `churn (12 joins, 24 role changes, 12 new and 10 deleted roles, 9 leaves and bans) during ${terminations} terminations: mirror as Discord ${settled.ms} ms after the last; processes exited: 0`,
    );
  }, 150_000);

  it('answers every API request 503 with a sentence and Retry-After while the database refuses connections, and loses nothing', async () => {
    const urls = ['/api/user', '/api/guilds', `/api/members/${hangout}`, `/api/guilds/${hangout}`];
    const answered503 = new Set<string>();
    const wrong: string[] = [];
    let requests = 0;
    await admin.query(`alter database ${dbName()} allow_connections false`);
    try {
      await terminateAll(false);
      // Joins while no process can store it (nor hold the gateway lock): the fill after the outage finds it.
      const during = await control('POST', `/discord/guilds/${hangout}/members`, {
        username: 'refused.during',
      });
      expect(during.status).toBe(201);
      const started = Date.now();
      // A 30 s outage (as issue #28 measured it), longer until each process has refused each route (its
      // session cache notices late).
      while (Date.now() - started < 30_000 || answered503.size < urls.length * 2) {
        if (Date.now() - started > 80_000) break;
        for (const [key, p] of Object.entries(procs)) {
          for (const url of urls) {
            const res = await fetch(`${p.url}${url}`, { headers: { cookie } });
            requests++;
            const body = (await res.json().catch(() => ({}))) as { message?: string };
            if (res.status === 200) continue;
            if (
              res.status === 503 &&
              body.message === DATABASE_UNAVAILABLE &&
              Number(res.headers.get('retry-after')) > 0
            )
              answered503.add(`${key} ${url}`);
            else if (
              res.status !== 503 ||
              !/\.$/.test(body.message ?? '') ||
              /Discord|VRChat/.test(body.message ?? '')
            )
              wrong.push(`${key} ${url}: ${res.status} ${body.message}`);
          }
        }
      }
    } finally {
      await admin.query(`alter database ${dbName()} allow_connections true`);
    }
    db = await connectTo(scratch.url);
    expect(wrong).toEqual([]);
    expect(answered503.size).toBe(urls.length * 2);
    const back = await poll(async () => {
      const answers = await Promise.all(
        Object.values(procs).map(
          async (p) => (await fetch(`${p.url}/api/user`, { headers: { cookie } })).status,
        ),
      );
      return answers.every((s) => s === 200);
    }, 30_000);
    const caughtUp = await poll(mirrorMatchesDiscord, 60_000);
    await poll(async () => (await sessionIds()).length === 1, 30_000);
    expect(alive(procs.a) && alive(procs.b)).toBe(true);
    note.push(
      `database refusing connections: ${requests} API requests, every refusal 503 with a sentence and Retry-After (${answered503.size} routes × processes seen); serving again ${back.ms} ms after, the member who joined meanwhile in the mirror after ${caughtUp.ms} ms; processes exited: 0`,
    );
  }, 180_000);

  it('takes a sync over within 2 minutes when its process is killed (-9), doing and audit-logging each action once', async () => {
    // The syncs the cases before asked for are not this case's: some retry after the terminations, with a
    // backoff that grew each time, and this case's request would join them.
    await poll(
      async () =>
        (await query(`select 1 from pgboss.job where name = 'sync.guild' and state = 'active'`)).length === 0,
      60_000,
    );
    await query(`delete from pgboss.job where name = 'sync.guild' and state in ('created', 'retry')`);
    const role = await control('POST', `/discord/guilds/${hangout}/roles`, { name: 'Linked (fault suite)' });
    expect(role.status).toBe(201);
    const roleId = role.body.id as string;
    // Five linked members who lack the linked role: the next sync gives it to each, slowly (1.5 s a grant).
    const members: string[] = [];
    for (let i = 0; i < 5; i++) {
      const username = `fault.linked${i}`;
      await joinedAndMirrored(procs.a, username, 30_000);
      const [{ user_id }] = await query(
        'select user_id from guild_members where guild_id = $1 and username = $2',
        [hangout, username],
      );
      members.push(user_id);
      await query(
        `insert into vrchat_links (discord_user_id, vrc_user_id, vrchat_name, is_verified, age_verification)
         values ($1, $2, $3, true, 'Unverified')`,
        [user_id, `usr_fault0000000000${i}`, `Fault ${i}`],
      );
    }
    await control('POST', '/faults', {
      platform: 'discord',
      kind: 'slow',
      delayMs: 1500,
      pathContains: `/roles/${roleId}`,
    });
    await query(
      `insert into guild_settings (guild_id, linked_role_id) values ($1, $2)
       on conflict (guild_id) do update set linked_role_id = excluded.linked_role_id`,
      [hangout, roleId],
    );
    const asked = await fetch(`${procs.a.url}/api/guilds/${hangout}/sync`, {
      method: 'POST',
      headers: signedInHeaders(
        'fault-suite-secret-key-000000000000',
        cookie.slice('vrclink_session='.length),
      ),
    });
    expect(asked.status).toBe(200);
    const grants = `select count(*)::int as n from audit_log where guild_id = $1 and action = 'role.auto.add'`;
    // The first grant is done: the sync is in the middle of its actions. Kill the process running it.
    await poll(async () => (await query(grants, [hangout]))[0].n >= 1, 60_000);
    const [running] = await query(
      `select output->>'worker' as worker from pgboss.job where name = 'sync.guild' and state = 'active'`,
    );
    expect(running?.worker).toMatch(/^fault-[ab]$/);
    const victim = running.worker === 'fault-b' ? 'b' : 'a';
    const survivor = victim === 'a' ? procs.b : procs.a;
    procs[victim].kill();
    const killedAt = Date.now();
    const took = await poll(async () => {
      const [row] = await query(
        `select 1 from pgboss.job where name = 'sync.guild' and state in ('active', 'completed') and output->>'worker' <> $1 and started_on > to_timestamp($2 / 1000.0)`,
        [`fault-${victim}`, killedAt],
      );
      return !!row;
    }, 120_000);
    const settled = await poll(async () => {
      const [{ n }] = await query(`select count(*)::int as n from sync_intents where guild_id = $1`, [
        hangout,
      ]);
      const state = await control('GET', `/discord/guilds/${hangout}`);
      const withRole = (state.body.members as { userId: string; roles: string[] }[]).filter(
        (m) => members.includes(m.userId) && m.roles.includes(roleId),
      );
      return n === 0 && withRole.length === members.length;
    }, 120_000 - took.ms);
    await control('DELETE', '/faults');
    const audits = await query(
      `select target_id, count(*)::int as n from audit_log where guild_id = $1 and action = 'role.auto.add' group by target_id`,
      [hangout],
    );
    const byTarget = new Map(audits.map((r) => [r.target_id as string, r.n as number]));
    const lost = members.filter((m) => !byTarget.has(m)).length;
    const doubled = members.filter((m) => (byTarget.get(m) ?? 0) > 1).length;
    note.push(
      `kill -9 mid-sync: taken over after ${took.ms} ms, all ${members.length} grants settled after ${took.ms + settled.ms} ms; lost ${lost}, doubled ${doubled}; survivor running: ${alive(survivor)}`,
    );
    expect(took.ms + settled.ms).toBeLessThan(120_000);
    expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
    expect(alive(survivor)).toBe(true);
  }, 200_000);

  it(`ends a process within its shutdown deadline (${SHUTDOWN_SECONDS} s) + 2 s on SIGTERM, answering the request in flight`, async () => {
    const p = Object.values(procs).find(alive);
    if (!p) throw new Error('no process left');
    const idle = await idleConnection(p.url);
    const finishing = await requestInFlight(p.url);
    const hanging = await requestInFlight(p.url);
    const exited = new Promise<number | null>((resolve) => p.child.once('exit', (code) => resolve(code)));
    const sentAt = Date.now();
    p.child.kill('SIGTERM');
    // An idle keep-alive connection is closed at once; a request in flight still gets its answer.
    await idle.closed;
    const idleMs = Date.now() - sentAt;
    finishing.finish();
    await finishing.closed;
    const answer = finishing.received().split('100 Continue')[1] ?? '';
    expect(answer).toMatch(/HTTP\/1\.1 [2-4]\d\d/);
    expect(answer).toMatch(/connection: close/i);
    // One whose body never comes is cut at the deadline.
    await hanging.closed;
    const code = await exited;
    const exitMs = Date.now() - sentAt;
    expect(exitMs).toBeLessThan((SHUTDOWN_SECONDS + 2) * 1000);
    expect(code).toBe(0);
    note.push(
      `SIGTERM with requests in flight: idle connection closed after ${idleMs} ms, the one finishing answered, the hanging one cut; exit ${code} after ${exitMs} ms (deadline ${SHUTDOWN_SECONDS} s)`,
    );
  }, 30_000);
});
