import { budgetWaits } from '../../../db/budget.js';
import { jobRegistry } from '../../../jobs/registry.js';
import { processStatus, writeHeartbeat } from '../../../jobs/scheduled-tasks/heartbeat.js';
import { PROCESS_GONE_AFTER_SECONDS } from '../../../jobs/scheduled-tasks/task-store.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import { VRCHAT_GROUPS_PER_ACCOUNT } from '../../../kernel/config.js';
import type { AppContext } from '../../../kernel/context.js';
import { unavailable } from '../../../kernel/errors.js';
import { vrchatBudgetKey } from '../../../platforms/start.js';
import { groupsPerAccount } from '../../group-sync/index.js';
import { requirePlatformAdmin } from '../../identity/index.js';
import { vrchatState } from './admin.schemas.js';

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** What each live process reported in its last heartbeat. */
async function liveProcesses(ctx: AppContext) {
  const { rows } = await ctx.database.executeSql(
    `select api, container, roles, started_at, heartbeat_at, status from process_instances
     where heartbeat_at > now() - make_interval(secs => $1) order by api, container`,
    [PROCESS_GONE_AFTER_SECONDS],
  );
  return rows.map((r: Row) => {
    const status = (r.status ?? {}) as { discord?: { gateway?: string }; vrchat?: Row | null };
    return {
      api: String(r.api),
      container: String(r.container),
      roles: r.roles as string[],
      startedAt: iso(r.started_at),
      heartbeatAt: iso(r.heartbeat_at),
      discord: { gateway: status.discord?.gateway ?? 'off' },
      // A row written by another version of the product may not match; show it as unknown then.
      vrchat: vrchatState.safeParse(status.vrchat).data ?? null,
      self: r.container === ctx.config.process.container,
    };
  });
}

/** Jobs waiting and running per queue, and failures in the last 24 hours (pg-boss's own tables). */
async function queueStats(ctx: AppContext) {
  const exec = ctx.database.executeSql;
  const [{ ready }] = (await exec(`select to_regclass('pgboss.job') is not null as ready`)).rows;
  const byName = new Map(
    jobRegistry.map((j) => [j.name, { name: j.name, queued: 0, active: 0, failedLast24h: 0 }]),
  );
  if (ready) {
    const depth = await exec(
      `select name, count(*) filter (where state in ('created', 'retry')) as queued,
         count(*) filter (where state = 'active') as active
       from pgboss.job group by name`,
    );
    const failed = await exec(
      `select name, count(*) as failed from (
         select name, completed_on from pgboss.job where state = 'failed'
         union all select name, completed_on from pgboss.archive where state = 'failed'
       ) f where completed_on > now() - interval '24 hours' group by name`,
    );
    const entry = (name: unknown) => {
      const key = String(name);
      if (!byName.has(key)) byName.set(key, { name: key, queued: 0, active: 0, failedLast24h: 0 });
      return byName.get(key) as { name: string; queued: number; active: number; failedLast24h: number };
    };
    for (const r of depth.rows)
      Object.assign(entry(r.name), { queued: num(r.queued), active: num(r.active) });
    for (const r of failed.rows) entry(r.name).failedLast24h = num(r.failed);
  }
  const queues = [...byName.values()];
  const sum = (k: 'queued' | 'active' | 'failedLast24h') => queues.reduce((n, q) => n + q[k], 0);
  return { queued: sum('queued'), active: sum('active'), failedLast24h: sum('failedLast24h'), queues };
}

/**
 * Each configured VRChat bot account: the linked groups it serves (of VRChat's 100), its login as the answering
 * process sees it (the session is shared by every process), and how long its shared budget makes a request wait.
 */
async function vrchatAccounts(ctx: AppContext) {
  const accounts = ctx.vrchat.accounts();
  const [served, waits] = await Promise.all([
    groupsPerAccount(ctx),
    budgetWaits(ctx.db, accounts.map(vrchatBudgetKey), ctx.vrchat.requestsPerSecond()),
  ]);
  const states = new Map(
    (ctx.platforms?.vrchat.accountStates() ?? []).map((a) => [a.account.toLowerCase(), a.state]),
  );
  return accounts.map((account) => ({
    account,
    groups: served.get(account.toLowerCase()) ?? 0,
    groupLimit: VRCHAT_GROUPS_PER_ACCOUNT,
    vrchat: states.get(account.toLowerCase()) ?? null,
    budgetWaitSeconds: Math.ceil((waits.get(vrchatBudgetKey(account)) ?? 0) / 1000),
  }));
}

export async function adminStatus(ctx: AppContext, userId: string) {
  requirePlatformAdmin(ctx, userId);
  const [processes, queue, accounts] = await Promise.all([
    liveProcesses(ctx),
    queueStats(ctx),
    vrchatAccounts(ctx),
  ]);
  return { processes, queue, vrchatAccounts: accounts };
}

/**
 * Retry login: the process answering logs its VRChat account in again and reports the outcome at once;
 * every process's heartbeat shows its own state.
 */
export async function retryVrchatLogin(ctx: AppContext, userId: string) {
  requirePlatformAdmin(ctx, userId);
  if (!ctx.platforms) throw unavailable('VRChat is not started in this process.');
  const state = await ctx.platforms.vrchat.start();
  await audit(ctx.db, {
    action: 'vrchat.login_retried',
    actor: userActor(userId),
    targetId: ctx.config.process.container,
    details: { status: state.status, lastError: state.lastError ?? null },
  });
  await writeHeartbeat(ctx).catch((err) => ctx.log.warn({ err }, 'heartbeat not written after retry'));
  return { container: ctx.config.process.container, vrchat: processStatus(ctx).vrchat ?? state };
}
