import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { pauseBudget } from '../../../db/budget.js';
import { writeHeartbeat } from '../../../jobs/scheduled-tasks/heartbeat.js';
import { startScheduler, type TaskScheduler } from '../../../jobs/scheduled-tasks/scheduler.js';
import { vrchatBudgetKey } from '../../../platforms/start.js';

const ADMIN = '1300000000000009999';
const TASKS = '/api/admin/scheduled-tasks';

describe('/api/admin (platform admins)', () => {
  let t: TestApp;
  let admin: { id: string; session: string };
  let user: { id: string; session: string };
  let scheduler: TaskScheduler;
  let self: { api: string; container: string };

  beforeAll(async () => {
    t = await createTestApp({
      ...laxSimulator.forVrchatTestPacing,
      jobs: true,
      env: { ADMIN_DISCORD_IDS: ADMIN },
    });
    admin = await signIn(t, { id: ADMIN, username: 'root' });
    user = await signIn(t);
    self = { api: t.ctx.config.process.api, container: t.ctx.config.process.container };
    await writeHeartbeat(t.ctx, new Date());
    scheduler = await startScheduler(t.ctx, { tickMs: 100_000 });
    t.ctx.scheduler = scheduler;
    // A process that stopped beating two minutes ago: it and its tasks are gone from /admin.
    await sql(
      `insert into process_instances (container, api, roles, heartbeat_at) values ('old-box', 'vrclink', '{worker}', now() - interval '2 minutes')`,
    );
    await sql(
      `insert into scheduled_tasks (api, container, task_name, timer_seconds) values ('vrclink', 'old-box', 'purgeExpired', 3600)`,
    );
  });
  afterAll(async () => {
    await scheduler?.stop();
    await t?.close();
  });

  const sql = async (text: string) => (await t.ctx.database.executeSql(text)).rows;
  const as = (session: string, method: 'GET' | 'POST', url: string) => t.inject({ method, url, session });
  const tasks = async () => (await as(admin.session, 'GET', `${TASKS}/get_tasks`)).json().tasks;
  const taskUrl = (verb: string, method: string, container = self.container) =>
    `${TASKS}/${verb}/${self.api}/${container}/${method}`;

  it.each([
    ['GET', `${TASKS}/get_tasks`],
    ['POST', `${TASKS}/toggle/vrclink/x/purgeExpired`],
    ['POST', `${TASKS}/run/vrclink/x/purgeExpired`],
    ['GET', '/api/admin/status'],
    ['GET', '/api/admin/jobs/recent'],
    ['POST', '/api/admin/vrchat/retry-login'],
  ])('%s %s answers 403 to a signed-in user who is not a platform admin', async (method, url) => {
    const res = await as(user.session, method as 'GET', url);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Only platform admins can do this.');
  });

  it('lists the tasks of live processes by method, with the default timers, and hides gone processes', async () => {
    const list = await tasks();
    expect(list.map((x: { container: string }) => x.container)).not.toContain('old-box');
    const mine = Object.fromEntries(list.map((x: { method: string; timer: number }) => [x.method, x]));
    expect(Object.keys(mine).sort()).toEqual([
      'deliverDiscordLogs',
      'dispatchLinkEvents',
      'followGroupAuditLogs',
      'mirrorWorlds',
      'purgeExpired',
      'rebuildEnabledWorlds',
      'reconcileAllGuildGuests',
      'reconcileAllGuildMembers',
      'refreshGroupRoles',
      'refreshStaleLinks',
      'regenerateOutOfDateAtlases',
      'syncAllGuilds',
    ]);
    expect(mine.purgeExpired).toMatchObject({ job: 'retention.purge', timer: 3600, enabled: true });
    // Each task in words, with a line on what it does (/admin shows these, not the method).
    expect(mine.deliverDiscordLogs).toMatchObject({
      title: 'Deliver Discord logs',
      description: "posts queued staff-log messages to each server's log channel",
    });
    for (const task of list) expect(task.description).not.toBe('');
    expect(mine.refreshStaleLinks.timer).toBe(900);
    expect(mine.rebuildEnabledWorlds.timer).toBe(60);
    expect(mine.mirrorWorlds).toMatchObject({ job: 'worlds.mirror', timer: 600 });
    expect(mine.reconcileAllGuildMembers.timer).toBe(21600);
    expect(mine.syncAllGuilds).toMatchObject({ job: 'sync.all', timer: 900 });
    expect(mine.dispatchLinkEvents).toMatchObject({ job: 'links.events', timer: 60 });
    expect(mine.followGroupAuditLogs).toMatchObject({ job: 'groups.follow', timer: 60 });
    // Only the purge runs at start; the others wait for their first timer.
    expect(new Date(mine.purgeExpired.nextRun).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(mine.refreshStaleLinks.nextRun).getTime()).toBeGreaterThan(Date.now() + 800_000);
  });

  it('toggles Enabled, answers the task, and audit-logs who did it', async () => {
    const off = await as(admin.session, 'POST', taskUrl('toggle', 'refreshStaleLinks'));
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ method: 'refreshStaleLinks', enabled: false });
    const on = await as(admin.session, 'POST', taskUrl('toggle', 'refreshStaleLinks'));
    expect(on.json().enabled).toBe(true);
    const audit = await sql(
      `select actor_id, target_id, details from audit_log where action = 'scheduled_task.toggled' order by id`,
    );
    expect(audit).toEqual([
      {
        actor_id: ADMIN,
        target_id: `${self.api}/${self.container}/refreshStaleLinks`,
        details: { enabled: false },
      },
      {
        actor_id: ADMIN,
        target_id: `${self.api}/${self.container}/refreshStaleLinks`,
        details: { enabled: true },
      },
    ]);
  });

  it('Run now on a task of this process queues its job at once and moves Last Run', async () => {
    const asked = Date.now();
    const res = await as(admin.session, 'POST', taskUrl('run', 'rebuildEnabledWorlds'));
    const answered = Date.now();
    expect(res.statusCode).toBe(200);
    const task = res.json();
    expect(task.runRequested).toBe(false);
    // Last Run is the moment of the request (however long a loaded machine took to answer it).
    const lastRun = new Date(task.lastRun).getTime();
    expect(lastRun).toBeGreaterThanOrEqual(asked - 1000);
    expect(lastRun).toBeLessThanOrEqual(answered);
    const jobs = await sql(`select count(*)::int as n from pgboss.job where name = 'worlds.rebuild'`);
    expect(jobs[0].n).toBe(1);
    const audit = await sql(`select actor_id from audit_log where action = 'scheduled_task.run_requested'`);
    expect(audit).toEqual([{ actor_id: ADMIN }]);
  });

  it("lists recent jobs newest first, in words, with their outcome and a failed one's error", async () => {
    await sql(
      `insert into pgboss.job (name, data, state, created_on, started_on, completed_on, output) values
       ('sync.all', '{}', 'completed', now() - interval '3 minutes', now() - interval '3 minutes', now() - interval '3 minutes', null),
       ('discordLog.deliver', '{}', 'failed', now() - interval '2 minutes', now() - interval '2 minutes', now() - interval '2 minutes', '{"message":"Discord answered 403\\n    at stack"}')`,
    );
    const res = await as(admin.session, 'GET', '/api/admin/jobs/recent');
    expect(res.statusCode).toBe(200);
    const jobs = res.json().jobs as { name: string; title: string; state: string; error: string | null }[];
    const sync = jobs.findIndex((j) => j.name === 'sync.all');
    const failed = jobs.findIndex((j) => j.name === 'discordLog.deliver');
    expect(failed).toBeGreaterThanOrEqual(0);
    expect(failed).toBeLessThan(sync);
    expect(jobs[sync]).toMatchObject({ title: 'Sync all servers', state: 'completed', error: null });
    expect(jobs[failed]).toMatchObject({
      title: 'Deliver Discord logs',
      state: 'failed',
      error: 'Discord answered 403',
    });
    // The status test below counts failures: this one is not its business.
    await sql(`delete from pgboss.job where name = 'discordLog.deliver' and state = 'failed'`);
  });

  it('answers 404 with a sentence for an unknown task and for a gone process', async () => {
    const unknown = await as(admin.session, 'POST', taskUrl('run', 'noSuchTask'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(
      `No running process ${self.container} of ${self.api} has a scheduled task named noSuchTask.`,
    );
    const gone = await as(admin.session, 'POST', taskUrl('toggle', 'purgeExpired', 'old-box'));
    expect(gone.statusCode).toBe(404);
  });

  it('reports each live process with its platform state, and the queue depth and failures of the last 24 h', async () => {
    await sql(
      `insert into pgboss.job (name, data, state, completed_on) values ('links.refresh', '{}', 'failed', now() - interval '1 hour'), ('links.refresh', '{}', 'failed', now() - interval '2 days')`,
    );
    await writeHeartbeat(t.ctx);
    const res = await as(admin.session, 'GET', '/api/admin/status');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.processes).toHaveLength(1);
    expect(body.processes[0]).toMatchObject({
      container: self.container,
      self: true,
      discord: { gateway: 'ready' },
      vrchat: { status: 'ok' },
    });
    expect(body.queue.failedLast24h).toBe(1);
    const refresh = body.queue.queues.find((q: { name: string }) => q.name === 'links.refresh');
    expect(refresh).toEqual({ name: 'links.refresh', queued: 0, active: 0, failedLast24h: 1 });
    expect(body.queue.queued).toBeGreaterThanOrEqual(1);
  });

  it("lists each VRChat bot account with the groups it serves of VRChat's 100, its login and its budget's wait", async () => {
    const [account] = t.ctx.vrchat.accounts();
    // Two linked groups served by the account (one stored before there were several: the first's), and a 429
    // pause of 30 s on its shared budget.
    await sql(
      `insert into guild_groups (guild_id, group_id, name, vrchat_account) values
         ('1400000000000000001', 'grp_a', 'A', '${account}'), ('1400000000000000002', 'grp_b', 'B', null)`,
    );
    await pauseBudget(t.ctx.db, vrchatBudgetKey(account), 30_000);
    try {
      const res = await as(admin.session, 'GET', '/api/admin/status');
      expect(res.statusCode).toBe(200);
      expect(res.json().vrchatAccounts).toEqual([
        {
          account,
          groups: 2,
          groupLimit: 100,
          vrchat: expect.objectContaining({ status: 'ok' }),
          budgetWaitSeconds: expect.any(Number),
        },
      ]);
      expect(res.json().vrchatAccounts[0].budgetWaitSeconds).toBeGreaterThanOrEqual(28);
      expect(res.json().vrchatAccounts[0].budgetWaitSeconds).toBeLessThanOrEqual(30);
    } finally {
      await sql(`update platform_budgets set paused_until = null`);
      await sql(`delete from guild_groups where group_id in ('grp_a', 'grp_b')`);
    }
  });

  it('retries the VRChat login of the answering process and audit-logs it', async () => {
    const res = await as(admin.session, 'POST', '/api/admin/vrchat/retry-login');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ container: self.container, vrchat: { status: 'ok' } });
    const audit = await sql(`select actor_id, details from audit_log where action = 'vrchat.login_retried'`);
    expect(audit).toEqual([{ actor_id: ADMIN, details: { status: 'ok', lastError: null } }]);
  });
});
