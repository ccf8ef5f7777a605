import { sql } from 'drizzle-orm';
import type { ExecuteSql, Queryable } from '../../../db/client.js';
import { userRateKey } from '../../../http/rate-limit.js';
import { type Actor, jobActor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { accountEraseJob } from '../../../kernel/job-catalog.js';
import { LOGIN_TOKEN_TTL_MS } from '../auth/login-token.service.js';
import { updateRoleConnection } from '../linked-roles/linked-roles.service.js';
import { finishedErasures, forgetFinishedErasures, forgetFinishedJobsOf } from './forget-erasures.js';
import { NAME_KEYS } from './pseudonym.js';

export interface ErasureRequest {
  userId: string;
  /** Stands for the user in the audit entries that stay. */
  pseudonym: string;
  /** The linked VRChat account when deletion was asked (pseudonymised in audit entries too). */
  vrcUserId: string | null;
  /**
   * When deletion was asked (database time). The erasure acts only on what existed then: the person may
   * sign in again before the job runs, and that new account's sessions, rows and activity are not the
   * deleted account's. Absent in jobs queued before it was recorded: then everything up to the job's run.
   */
  requestedAt?: string;
}

/**
 * What the wings above identity take back because of the user (guest roles made up to `madeBy`, the
 * servers' syncs): handed in by the job handler (group sync's takeBackGrantsOf), since identity imports
 * neither community nor group sync.
 */
export type TakeBack = (
  ctx: AppContext,
  userId: string,
  actor: Actor,
  madeBy: string,
  signal?: AbortSignal,
) => Promise<void>;

/**
 * The work of a deleted account (the `account.erase` job), in an order a retry can repeat from any point:
 * unlink (normally done already by the request, see deleteMyAccount); take back what the bot gave because
 * of the user (the servers' syncs run now, so the linked, 18+ and mapped roles and group places follow the
 * missing link; guest roles; the Linked Roles connection, while the OAuth token still exists); then erase
 * every row of theirs and pseudonymise the audit entries that stay. Only what existed at the request:
 * a new sign-in in between is a new account and keeps its session, link and activity. Platform calls
 * happen between transactions, never inside one.
 */
export async function eraseAccount(
  ctx: AppContext,
  req: ErasureRequest,
  takeBack: TakeBack,
  signal?: AbortSignal,
): Promise<void> {
  const actor: Actor = jobActor(accountEraseJob.name);
  const { userId } = req;
  const before = req.requestedAt ?? (await databaseNow(ctx.database.executeSql));
  await ctx.db.transaction((tx) => unlinkAsRequested(tx, userId, before));
  await takeBack(ctx, userId, actor, before, signal);
  // The connection says what the links now say: with the old link gone, "not linked, not 18+", so
  // Discord's Linked Roles drop at once (a new account's own new link, if any, is what it shows).
  await updateRoleConnection(ctx, userId, actor);
  await eraseRows(ctx, req, before);
  // Work that was running meanwhile (a Linked Roles update that read their token before it went) may still
  // write an entry naming them: once it finished, the same erasure again. Work starting later finds nothing
  // of theirs to act on.
  const running = await ctx.jobs.untilRunningFinish?.(
    { naming: userId, exceptJob: accountEraseJob },
    { timeoutMs: IN_FLIGHT_WAIT_MS, signal },
  );
  if (running) await eraseRows(ctx, req, before);
  await forgetFinishedJobsOf(ctx.database.executeSql, userId);
}

/**
 * The hourly purge's part: each finished erasure once more, for what work running past its wait wrote (a
 * big server's sync) and the jobs naming the user that finished since, then the queue forgets the erasure (its
 * payload names the user and their pseudonym).
 */
export async function closeFinishedErasures(ctx: AppContext): Promise<void> {
  for (const req of await finishedErasures(ctx.database.executeSql)) {
    await eraseRows(ctx, req, req.requestedAt);
    await forgetFinishedJobsOf(ctx.database.executeSql, req.userId);
  }
  await forgetFinishedErasures(ctx.database.executeSql);
}

/**
 * How long an erasure waits for running work that names the user (see eraseAccount); past it, it erases
 * again anyway, and the hourly purge erases once more before forgetting the erasure (forget-erasures.ts).
 */
export const IN_FLIGHT_WAIT_MS = 2 * 60_000;

/**
 * The database's clock as an ISO date-time to the microsecond, as rows' `created_at` are written: a
 * JavaScript Date keeps only milliseconds, and a row made in the same millisecond before the request
 * would then count as after it.
 */
export async function databaseNow(executeSql: ExecuteSql): Promise<string> {
  const { rows } = await executeSql(
    `select to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
  );
  return String(rows[0]?.now);
}

/**
 * The deleted account's link, codes and invite records (made up to `before`): removed by the deletion
 * request in its own transaction, so that a new sign-in never finds the old link; again by the job for
 * requests queued before that.
 */
export async function unlinkAsRequested(tx: Queryable, userId: string, at: string): Promise<void> {
  await tx.execute(sql`delete from vrchat_links where discord_user_id = ${userId} and linked_at <= ${at}`);
  await tx.execute(
    sql`delete from verification_codes where discord_user_id = ${userId} and created_at <= ${at}`,
  );
  await tx.execute(sql`delete from group_invites where discord_user_id = ${userId} and invited_at <= ${at}`);
}

/**
 * Every row naming the user (made up to the request, `at`): deleted where it is theirs, pseudonymised where a
 * server's record must stay. The member mirror (guild_members) is left: it is Discord's own member list of
 * servers the person is still in, which the next gateway event or fill would write back (and the bot needs
 * it to act on them); it goes when they leave the server. When the person signed in again after the
 * request, the user record and OAuth tokens are the new account's and stay, and so does what the syncs
 * keep now (it is about the member as they are now).
 */
async function eraseRows(ctx: AppContext, { userId, pseudonym, vrcUserId }: ErasureRequest, at: string) {
  const ids = vrcUserId ? [userId, vrcUserId] : [userId];
  // A /login token lives 5 minutes: one that expires later was issued after the request.
  const loginTokensBy = new Date(Date.parse(at) + LOGIN_TOKEN_TTL_MS).toISOString();
  await ctx.db.transaction(async (tx) => {
    const run = (query: ReturnType<typeof sql>) => tx.execute(query);
    const returned = await tx.execute(
      sql`select 1 from users where id = ${userId} and last_login_at > ${at}`,
    );
    const signedInAgain = rowCount(returned) > 0;
    // Only when the person signed in again is there a new account to spare: its rows are those made after
    // the request. Otherwise everything naming them goes, also what the erasure's own take-back logged.
    const upTo = (column: string, time = at) =>
      signedInAgain ? sql`${sql.identifier(column)} <= ${time}` : sql`true`;
    // Theirs: gone.
    await run(sql`delete from sessions where user_id = ${userId} and ${upTo('created_at')}`);
    await run(
      sql`delete from login_tokens where user_id = ${userId} and ${upTo('expires_at', loginTokensBy)}`,
    );
    if (!signedInAgain) {
      await run(sql`delete from discord_tokens where user_id = ${userId}`);
      await run(sql`delete from users where id = ${userId}`);
    }
    await run(sql`delete from link_events where discord_user_id = ${userId} and ${upTo('created_at')}`);
    // Summaries hold only link changes older than the link-events retention: all from before the request.
    await run(sql`delete from link_change_summaries where discord_user_id = ${userId}`);
    await run(sql`delete from guests where (host_user_id = ${userId} or guest_discord_id = ${userId})
      and ${upTo('created_at')}`);
    await run(sql`delete from guild_permissions where user_id = ${userId} and ${upTo('updated_at')}`);
    await run(sql`delete from sdk_login_requests where approved_by = ${userId} and ${upTo('created_at')}`);
    await run(sql`delete from cooldowns where strpos(key, ${userId}) > 0`);
    // The member's shares of the VRChat budget (`vrchat-search:<id>`, `vrchat-account-read:<id>`).
    await run(sql`delete from platform_budgets where key like ${`%:${userId}`}`);
    await run(
      sql`delete from rate_limits where key = ${`rate:${userRateKey(ctx.config.secretKey, userId)}`}`,
    );
    // A server's records they made stay, made by the pseudonym.
    await run(sql`update guild_permissions set granted_by = ${pseudonym}
      where granted_by = ${userId} and ${upTo('updated_at')}`);
    await run(
      sql`update api_keys set created_by = ${pseudonym} where created_by = ${userId} and ${upTo('created_on')}`,
    );
    await run(sql`update world_images set created_by = ${pseudonym}
      where created_by = ${userId} and ${upTo('created_at')}`);
    await run(sql`update world_atlas_state set requested_by = ${pseudonym}
      where requested_by = ${userId} and ${upTo('requested_at')}`);
    await run(
      sql`update api_log set user_id = ${pseudonym} where user_id = ${userId} and ${upTo('created_at')}`,
    );
    // Audit entries stay (servers' history), pseudonymised: ids replaced, display names dropped.
    const names = sql.raw(`array[${NAME_KEYS.map((k) => `'${k}'`).join(',')}]`);
    for (const id of ids) {
      await run(sql`update audit_log
        set details = (replace(details::text, ${id}, ${pseudonym})::jsonb) - ${names}
        where strpos(details::text, ${id}) > 0 and ${upTo('created_at')}`);
      await run(sql`update audit_log set details = details - ${names}
        where details is not null and (actor_id = ${id} or target_id = ${id}) and ${upTo('created_at')}`);
      await run(
        sql`update audit_log set actor_id = ${pseudonym} where actor_id = ${id} and ${upTo('created_at')}`,
      );
      await run(
        sql`update audit_log set target_id = ${pseudonym} where target_id = ${id} and ${upTo('created_at')}`,
      );
      if (signedInAgain) continue;
      // What the syncs keep about members (last result, held removals, warnings, writes in flight).
      for (const column of ['last_result', 'held_removals', 'warnings']) {
        const col = sql.identifier(column);
        await run(sql`update guild_sync_state set ${col} = replace(${col}::text, ${id}, ${pseudonym})::jsonb
          where strpos(${col}::text, ${id}) > 0`);
      }
      for (const column of ['action', 'details']) {
        const col = sql.identifier(column);
        await run(sql`update sync_intents set ${col} = replace(${col}::text, ${id}, ${pseudonym})::jsonb
          where strpos(${col}::text, ${id}) > 0`);
      }
      // A removal held for them names them: let go (their link is gone, so the rules decide afresh).
      await run(sql`delete from sync_held_removals where discord_user_id = ${id} or vrc_user_id = ${id}`);
    }
  });
}

/** node-postgres says rowCount, PGlite affectedRows or rows. */
function rowCount(res: unknown): number {
  const r = res as { rows?: unknown[]; rowCount?: number | null };
  return r.rows?.length ?? r.rowCount ?? 0;
}
