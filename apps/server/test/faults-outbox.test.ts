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
const SECRET_KEY = 'fault-outbox-secret-key-0000000000';
const ADMIN = '1200000000000000001';
const hangout = seedGuildIds.hangout.id;
/** How long Discord holds the answer of a log post it made: the database or the process goes away then. */
const ANSWER_HELD_MS = 5000;

/** Polls `check` every 250 ms until it answers truthy (a failed check counts as not yet). */
async function poll<T>(check: () => Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The fault suite's Discord logging part (PostgreSQL, several processes with every role, one simulated
 * Discord): a log post goes out and then the database is gone before its outbox row is deleted — the
 * database refusing connections, or the posting process killed (-9). The post must not be doubled: the
 * process deletes the row when the database is back, and another process retrying it sends the row's nonce,
 * which Discord answers with the message already made (enforce_nonce).
 */
describe.skipIf(!adminUrl)(
  'fault suite: a database drop between a Discord log post and its outbox delete',
  () => {
    let sim: Awaited<ReturnType<typeof startOwnSimulator>>;
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
    let env: Record<string, string>;
    let admin: pg.Client;
    const procs: ServerProcess[] = [];
    let session: string;
    let channel: string;
    let dbName: string;
    const note: string[] = [];

    const control = async (method: string, path: string, body?: unknown) =>
      // biome-ignore lint/suspicious/noExplicitAny: the test reads the simulator's JSON ad hoc
      (await callSimulatorControl(sim.sim.url, method, path, body)) as { status: number; body: any };
    const alive = (p: ServerProcess) => p.child.exitCode === null && p.child.signalCode === null;
    /** A query on a connection of its own (the outage ends the connections of the scratch database). */
    const query = async (text: string, values?: unknown[]) => {
      const client = new pg.Client({ connectionString: scratch.url });
      client.on('error', () => {});
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end().catch(() => {});
      }
    };
    const transcript = async () =>
      (await control('GET', `/discord/channels/${channel}/messages`)).body as {
        id: string;
        embeds: { title?: string; description?: string }[];
      }[];
    const outboxEmpty = async () =>
      (await query('select count(*)::int as n from discord_log_outbox'))[0].n === 0;
    /** A settings change of the Hangout (audit-logged, so a log post): the logging config saved again. */
    const changeSettings = async (eventTypes: string[]) => {
      const res = await fetch(`${procs[0].url}/api/guilds/logging/${hangout}/config`, {
        method: 'PATCH',
        headers: { ...signedInHeaders(SECRET_KEY, session), 'content-type': 'application/json' },
        body: JSON.stringify({ channelId: channel, eventTypes }),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    /**
     * Makes the next log post hold its answer (Discord made the message; the product learns it late) and
     * answers once the message is there: the database or the process goes away before the answer arrives.
     */
    const postMadeAnswerHeld = async (change: () => Promise<void>) => {
      const before = (await transcript()).length;
      const fault = { platform: 'discord', kind: 'slow_answer', delayMs: ANSWER_HELD_MS, count: 1 };
      const set = await control('POST', '/faults', {
        ...fault,
        pathContains: `/channels/${channel}/messages`,
      });
      expect(set.status).toBe(201);
      await change();
      await poll(async () => (await transcript()).length === before + 1, 60_000, 'the log post made');
    };

    beforeAll(async () => {
      ({ sim, scratch, env } = await sharedBackends(adminUrl as string, SECRET_KEY));
      dbName = new URL(scratch.url).pathname.slice(1);
      procs.push(await startServerProcess({ ...env, INSTANCE_NAME: 'outbox-a' }));
      procs.push(await startServerProcess({ ...env, INSTANCE_NAME: 'outbox-b' }));
      admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      const database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
      await upsertUser(database.db, { id: ADMIN, username: 'demo_admin', globalName: null, avatar: null });
      session = await createSession(database.db, ADMIN, 'web');
      await database.close();
      const made = await control('POST', `/discord/guilds/${hangout}/channels`, { name: 'outbox-faults' });
      expect(made.status).toBe(201);
      channel = made.body.id as string;
    }, 180_000);

    afterAll(async () => {
      if (note.length > 0) console.log(`Fault suite (log outbox), closing note:\n  ${note.join('\n  ')}`);
      await admin?.query(`alter database "${dbName}" with allow_connections true`).catch(() => {});
      await Promise.all(procs.map((p) => p.stop()));
      await admin?.end();
      await scratch?.drop();
      await sim?.sim.close();
    }, 60_000);

    it('posts once when the database refuses connections between the post and the delete', async () => {
      // Saving the config with logging on is the first settings change the channel gets a post for.
      await postMadeAnswerHeld(() => changeSettings(['settings']));
      // Discord made the post and holds its answer: the database goes away under both processes meanwhile.
      await admin.query(`alter database "${dbName}" with allow_connections false`);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      const downAt = Date.now();
      // The answer arrives while the database refuses connections, so the row's delete fails.
      await new Promise((r) => setTimeout(r, ANSWER_HELD_MS + 3000));
      await admin.query(`alter database "${dbName}" with allow_connections true`);
      const outage = Date.now() - downAt;
      const started = Date.now();
      await poll(outboxEmpty, 120_000, 'the outbox emptied');
      const messages = await transcript();
      note.push(
        `database refused for ${outage} ms after the post: outbox emptied ${Date.now() - started} ms later; posts ${messages.length} (doubled ${messages.length - 1}); processes exited: ${procs.filter((p) => !alive(p)).length}`,
      );
      expect(messages).toHaveLength(1);
      expect(messages[0].embeds[0]?.title).toBe('Settings changes');
      expect(procs.every(alive)).toBe(true);
    }, 240_000);

    it('posts once when the posting process is killed (-9) before the delete: another process retries with the nonce', async () => {
      const before = (await transcript()).length;
      await postMadeAnswerHeld(() => changeSettings(['settings', 'links']));
      // The posting process (whichever it is) dies before Discord's answer; a new one takes the outbox over
      // after the lease.
      const killed = procs.splice(0, procs.length);
      for (const p of killed) p.kill();
      procs.push(await startServerProcess({ ...env, INSTANCE_NAME: 'outbox-c' }));
      const started = Date.now();
      await poll(outboxEmpty, 180_000, 'the outbox emptied by the new process');
      const messages = await transcript();
      note.push(
        `kill -9 after the post: the new process emptied the outbox ${Date.now() - started} ms after its start; posts ${messages.length - before} (doubled ${messages.length - before - 1})`,
      );
      expect(messages).toHaveLength(before + 1);
      expect(alive(procs[0])).toBe(true);
    }, 300_000);
  },
);
