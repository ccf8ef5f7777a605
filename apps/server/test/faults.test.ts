import { seedGuildIds } from '@vrclink/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import type { startOwnSimulator } from '../src/demo.js';
import { callSimulatorControl } from '../src/platforms/testing.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import type { createScratchDatabase } from './db.js';
import { type ServerProcess, sharedBackends, signedInHeaders, startServerProcess } from './server-process.js';

const adminUrl = process.env.DATABASE_URL;
const ADMIN = '1200000000000000001';
const hangout = seedGuildIds.hangout.id;

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

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sim, scratch, env } = await sharedBackends(adminUrl as string, 'fault-suite-secret-key-000000000000'));
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

  it('takes a sync over within 2 minutes when its process is killed (-9), doing and audit-logging each action once', async () => {
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
});
