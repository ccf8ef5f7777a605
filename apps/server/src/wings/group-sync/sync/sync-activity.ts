import { listLiveTasks } from '../../../jobs/scheduled-tasks/task-store.js';
import type { AppContext } from '../../../kernel/context.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import type { SyncActionKind } from './sync-plan.js';

/** A sync of the server waiting in the queue or running now (pg-boss's own table), or null. */
export async function syncActivityOf(
  ctx: AppContext,
  guildId: string,
): Promise<{ state: 'queued' | 'running'; since: string } | null> {
  const exec = ctx.database.executeSql;
  const [{ ready }] = (await exec(`select to_regclass('pgboss.job') is not null as ready`)).rows;
  if (!ready) return null;
  const { rows } = await exec(
    `select state, coalesce(started_on, created_on) as since from pgboss.job
     where name = $2 and data->>'guildId' = $1 and state in ('created', 'retry', 'active')
     order by (state = 'active') desc, created_on limit 1`,
    [guildId, syncGuildJob.name],
  );
  if (rows.length === 0) return null;
  return {
    state: rows[0].state === 'active' ? 'running' : 'queued',
    since: new Date(rows[0].since as string).toISOString(),
  };
}

/** When the scheduled full sync of every server (sync.all) runs next; null when no live process runs it. */
export async function nextScheduledSync(ctx: AppContext): Promise<string | null> {
  const due = (await listLiveTasks(ctx.db))
    .filter((t) => t.taskName === 'syncAllGuilds' && t.enabled && t.nextRunAt)
    .map((t) => (t.nextRunAt as Date).getTime());
  return due.length ? new Date(Math.min(...due)).toISOString() : null;
}

/** VRChat's pace (the pacer's 1 request/s) and Discord's for role changes (about 10 per 10 s per server). */
const SECONDS_PER_VRCHAT_WRITE = 1;
const SECONDS_PER_DISCORD_WRITE = 1;
/** A sync reads the group about seven times before it writes. */
const VRCHAT_READ_SECONDS = 7;

/**
 * How long a sync carrying out these actions takes at the platforms' pace (seconds, rounded up): the group
 * reads and VRChat's writes, and Discord's writes, side by side (the sync applies the two platforms' actions
 * at once), so the longer of the two.
 */
export function estimatedSyncSeconds(counts: Partial<Record<SyncActionKind, number>>, readsGroup: boolean) {
  let vrchat = readsGroup ? VRCHAT_READ_SECONDS : 0;
  let discord = 0;
  for (const [kind, n] of Object.entries(counts)) {
    if (kind === 'addDiscordRole' || kind === 'removeDiscordRole')
      discord += (n ?? 0) * SECONDS_PER_DISCORD_WRITE;
    else vrchat += (n ?? 0) * SECONDS_PER_VRCHAT_WRITE;
  }
  return Math.ceil(Math.max(vrchat, discord));
}
