import { findJob } from '../../../jobs/registry.js';
import type { AppContext } from '../../../kernel/context.js';
import { requirePlatformAdmin } from '../../identity/index.js';

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** pg-boss's states as /admin says them. */
const stateOf = (state: unknown) => {
  switch (state) {
    case 'created':
    case 'retry':
      return 'queued' as const;
    case 'active':
      return 'running' as const;
    case 'completed':
      return 'completed' as const;
    case 'cancelled':
      return 'cancelled' as const;
    default:
      return 'failed' as const;
  }
};

/** A failed job's output is the error pg-boss stored: its message's first line, kept short. */
function errorLine(output: unknown): string | null {
  const message = (output as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || message === '') return null;
  const line = message.split('\n')[0];
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export const RECENT_JOBS_LIMIT = 50;

/** The newest jobs of every queue (waiting, running and finished, archived ones too), with their outcome. */
export async function recentJobs(ctx: AppContext, userId: string) {
  requirePlatformAdmin(ctx, userId);
  const exec = ctx.database.executeSql;
  const [{ ready }] = (await exec(`select to_regclass('pgboss.job') is not null as ready`)).rows;
  if (!ready) return { jobs: [] };
  const { rows } = await exec(
    `select id, name, state, created_on, started_on, completed_on, output from (
       select id, name, state::text, created_on, started_on, completed_on, output from pgboss.job
       union all
       select id, name, state::text, created_on, started_on, completed_on, output from pgboss.archive
     ) j where name not like '\\_\\_%' order by coalesce(completed_on, started_on, created_on) desc, id limit $1`,
    [RECENT_JOBS_LIMIT],
  );
  return {
    jobs: rows.map((r: Row) => {
      const state = stateOf(r.state);
      return {
        id: String(r.id),
        name: String(r.name),
        title: findJob(String(r.name))?.title ?? String(r.name),
        state,
        createdAt: iso(r.created_on) as string,
        startedAt: iso(r.started_on),
        completedAt: iso(r.completed_on),
        error: state === 'failed' ? errorLine(r.output) : null,
      };
    }),
  };
}
