import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/app.js';
import type { AppContext } from '../../kernel/context.js';
import { defineJob, type JobDefinition } from '../define.js';
import type { JobQueue } from '../queue.js';
import { startScheduler, type TaskScheduler } from './scheduler.js';
import { findTask, requestRun } from './task-store.js';

const job = (name: string, method: string, timerSeconds: number, runAtStart = false) =>
  defineJob({
    name,
    payload: z.object({}),
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    expireInSeconds: 60,
    schedule: { timerSeconds, method, runAtStart },
    run: async () => {},
  });
const registry = [
  job('t.start', 'runsAtStart', 3600, true),
  job('t.later', 'runsLater', 3600),
] as JobDefinition[];

/** A queue that records what the scheduler sends. */
function recordingQueue() {
  const sent: { name: string; singletonKey?: string }[] = [];
  const queue: JobQueue = {
    async send(job, _payload, opts) {
      sent.push({ name: job.name, singletonKey: opts?.singletonKey });
      return String(sent.length);
    },
  };
  return { sent, queue };
}

const A = { api: 'vrclink', container: 'proc-a' };
const B = { api: 'vrclink', container: 'proc-b' };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduler', () => {
  let t: TestApp;
  const started: TaskScheduler[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.stop();
    await t.ctx.database.executeSql('delete from scheduled_tasks');
  });
  afterAll(() => t.close());

  async function start(owner: typeof A, tickMs = 100_000) {
    const rec = recordingQueue();
    const ctx: AppContext = { ...t.ctx, jobs: rec.queue };
    const scheduler = await startScheduler(ctx, { owner, registry, tickMs });
    started.push(scheduler);
    return { ...rec, scheduler };
  }

  it('registers its tasks though the database connection is lost as it starts (tried again, not thrown)', async () => {
    // The first statement fails as a terminated connection does (57P01); the next ones reach the database.
    let failed = 0;
    const db = new Proxy(t.ctx.db, {
      get(target, key, receiver) {
        if (key === 'insert' && failed === 0) {
          failed++;
          const lost = Object.assign(new Error('terminating connection due to administrator command'), {
            code: '57P01',
          });
          return () => {
            throw lost;
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const scheduler = await startScheduler(
      { ...t.ctx, db, jobs: recordingQueue().queue },
      { owner: A, registry, tickMs: 100_000 },
    );
    started.push(scheduler);
    expect(failed).toBe(1);
    expect(await findTask(t.ctx.db, { ...A, taskName: 'runsLater' })).toBeTruthy();
  });

  it('registers its tasks by method, and fires a due task once until its timer comes round', async () => {
    const a = await start(A);
    expect((await findTask(t.ctx.db, { ...A, taskName: 'runsAtStart' }))?.timerSeconds).toBe(3600);
    expect(await findTask(t.ctx.db, { ...A, taskName: 'runsLater' })).not.toBeNull();
    await a.scheduler.runDue();
    await a.scheduler.runDue();
    expect(a.sent).toEqual([{ name: 't.start', singletonKey: 't.start' }]);
    const row = await findTask(t.ctx.db, { ...A, taskName: 'runsAtStart' });
    expect(row?.lastRunAt).toBeInstanceOf(Date);
    expect((row?.nextRunAt?.getTime() ?? 0) - (row?.lastRunAt?.getTime() ?? 0)).toBe(3600_000);
  });

  it('keeps Enabled and the times of a task when the same process starts again', async () => {
    const first = await start(A);
    await first.scheduler.runDue();
    await t.ctx.database.executeSql(
      `update scheduled_tasks set enabled = false where container = 'proc-a' and task_name = 'runsLater'`,
    );
    const before = await findTask(t.ctx.db, { ...A, taskName: 'runsAtStart' });
    await first.scheduler.stop();
    await start(A);
    const after = await findTask(t.ctx.db, { ...A, taskName: 'runsAtStart' });
    expect(after?.nextRunAt).toEqual(before?.nextRunAt);
    expect((await findTask(t.ctx.db, { ...A, taskName: 'runsLater' }))?.enabled).toBe(false);
  });

  it('does not fire a task that was toggled off, even when it is due', async () => {
    const a = await start(A);
    await t.ctx.database.executeSql(
      `update scheduled_tasks set enabled = false where container = 'proc-a' and task_name = 'runsAtStart'`,
    );
    await a.scheduler.runDue();
    expect(a.sent).toEqual([]);
  });

  it('Run now written by another process reaches the owner at its next tick, once', async () => {
    // The owner ticks on its own every 50 ms; the other process only writes the request.
    await t.ctx.database.executeSql(
      `insert into process_instances (container, api, roles) values ('proc-a', 'vrclink', '{worker}')
       on conflict (container) do update set heartbeat_at = now()`,
    );
    const a = await start(A, 50);
    const b = await start(B);
    // Only t.later counts: the owner's first tick (t.start) may come at any time on a busy machine.
    const later = () => a.sent.filter((s) => s.name === 't.later');
    const asked = await requestRun(t.ctx.db, { ...A, taskName: 'runsLater' });
    expect(asked?.runRequestedAt).toBeInstanceOf(Date);
    const deadline = Date.now() + 15_000;
    while (later().length === 0 && Date.now() < deadline) await wait(20);
    // Several more ticks: none sends it again.
    await wait(300);
    expect(later()).toEqual([{ name: 't.later', singletonKey: 't.later' }]);
    expect(b.sent.filter((s) => s.name === 't.later')).toEqual([]);
    const row = await findTask(t.ctx.db, { ...A, taskName: 'runsLater' });
    expect(row?.runRequestedAt).toBeNull();
    expect(row?.lastRunAt).toBeInstanceOf(Date);
  });

  it('runs a disabled task on Run now (an explicit one-off)', async () => {
    const a = await start(A);
    await a.scheduler.runDue();
    a.sent.length = 0;
    await t.ctx.database.executeSql(
      `update scheduled_tasks set enabled = false, run_requested_at = now() where task_name = 'runsLater'`,
    );
    await a.scheduler.runDue();
    expect(a.sent.map((s) => s.name)).toEqual(['t.later']);
  });

  it('claims a task once when two passes race for it', async () => {
    const a = await start(A);
    const twin = await start(A);
    await Promise.all([a.scheduler.runDue(), twin.scheduler.runDue()]);
    expect([...a.sent, ...twin.sent].map((s) => s.name)).toEqual(['t.start']);
  });

  it('keeps the reason and tries again soon when the job cannot be queued', async () => {
    const ctx: AppContext = {
      ...t.ctx,
      jobs: { send: async () => Promise.reject(new Error('queue down')) },
    };
    const s = await startScheduler(ctx, { owner: A, registry, tickMs: 100_000 });
    started.push(s);
    await s.runDue();
    const row = await findTask(t.ctx.db, { ...A, taskName: 'runsAtStart' });
    expect(row?.lastError).toBe('queue down');
    expect((row?.nextRunAt?.getTime() ?? 0) - Date.now()).toBeLessThan(31_000);
  });
});
