import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../kernel/context.js';
import { serverDir } from '../server-dir.js';

/** One readiness check: `ok`, or a short reason it is not. */
export type CheckResult = 'ok' | string;

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

let newestMigration: number | undefined;

/** When the newest migration this release ships was generated (drizzle's journal; the applied rows keep it). */
function newestMigrationOfThisRelease(): number {
  newestMigration ??= Math.max(
    ...(
      JSON.parse(readFileSync(join(serverDir, 'drizzle/meta/_journal.json'), 'utf8')) as {
        entries: { when: number }[];
      }
    ).entries.map((e) => e.when),
  );
  return newestMigration;
}

async function databaseCheck(ctx: AppContext): Promise<CheckResult> {
  try {
    await ctx.database.executeSql('select 1');
    return 'ok';
  } catch {
    return 'the database does not answer';
  }
}

/**
 * Every migration of this release is applied (a newer release's further ones may be: migrations stay compatible
 * with the release before, docs/deploy.md).
 */
async function migrationsCheck(ctx: AppContext): Promise<CheckResult> {
  try {
    const { rows } = await ctx.database.executeSql(
      'select max(created_at)::text as newest from drizzle.__drizzle_migrations',
    );
    const applied = Number(rows[0]?.newest ?? 0);
    return applied >= newestMigrationOfThisRelease() ? 'ok' : 'migrations of this release are not applied';
  } catch {
    return 'the migrations table cannot be read';
  }
}

/**
 * Readiness of this process: the database answers, its migrations are applied, and each of its roles is up —
 * `api` by answering at all, `bot` with its gateway connected (or standing by while another process holds it),
 * `worker` with its job loop and scheduled tasks running.
 */
export async function readinessOf(ctx: AppContext): Promise<Readiness> {
  const roles = ctx.config.process.roles;
  const database = await databaseCheck(ctx);
  const checks: Record<string, CheckResult> = {
    database,
    migrations: database === 'ok' ? await migrationsCheck(ctx) : 'the database does not answer',
  };
  if (roles.has('bot')) {
    const gateway = ctx.platforms?.gatewayState() ?? 'off';
    checks.gateway =
      gateway === 'ready' || gateway === 'standby' ? 'ok' : `the Discord gateway is ${gateway}`;
  }
  if (roles.has('worker')) checks.jobs = ctx.scheduler ? 'ok' : 'the job worker is not running';
  return { ready: Object.values(checks).every((c) => c === 'ok'), checks };
}
