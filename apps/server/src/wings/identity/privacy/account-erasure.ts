import { eq, sql } from 'drizzle-orm';
import { groupInvites, verificationCodes, vrchatLinks } from '../../../db/schema/index.js';
import { userRateKey } from '../../../http/rate-limit.js';
import { type Actor, jobActor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { accountEraseJob } from '../../../kernel/job-catalog.js';
import { updateRoleConnection } from '../linked-roles/linked-roles.service.js';
import { forgetFinishedJobsOf } from './forget-erasures.js';
import { NAME_KEYS } from './pseudonym.js';

export interface ErasureRequest {
  userId: string;
  /** Stands for the user in the audit entries that stay. */
  pseudonym: string;
  /** The linked VRChat account when deletion was asked (pseudonymised in audit entries too). */
  vrcUserId: string | null;
}

/**
 * What the wings above identity take back because of the user (guest roles, the servers' syncs): handed in by
 * the job handler (group sync's takeBackGrantsOf), since identity imports neither community nor group sync.
 */
export type TakeBack = (ctx: AppContext, userId: string, actor: Actor) => Promise<void>;

/**
 * The work of a deleted account (the `account.erase` job), in an order a retry can repeat from any point:
 * unlink; take back what the bot gave because of the user (the servers' syncs run now, so the linked, 18+
 * and mapped roles and group places follow the missing link; guest roles; the Linked Roles connection,
 * while the OAuth token still exists); then erase every row of theirs and pseudonymise the audit entries
 * that stay. Platform calls happen between transactions, never inside one.
 */
export async function eraseAccount(ctx: AppContext, req: ErasureRequest, takeBack: TakeBack): Promise<void> {
  const actor: Actor = jobActor(accountEraseJob.name);
  const { userId } = req;
  await ctx.db.transaction(async (tx) => {
    await tx.delete(vrchatLinks).where(eq(vrchatLinks.discordUserId, userId));
    await tx.delete(verificationCodes).where(eq(verificationCodes.discordUserId, userId));
    await tx.delete(groupInvites).where(eq(groupInvites.discordUserId, userId));
  });
  await takeBack(ctx, userId, actor);
  // With no link the connection says "not linked, not 18+": Discord's Linked Roles drop at once.
  await updateRoleConnection(ctx, userId, actor);
  await eraseRows(ctx, req);
  await forgetFinishedJobsOf(ctx.database.executeSql, userId);
}

/**
 * Every row naming the user: deleted where it is theirs, pseudonymised where a server's record must stay.
 * The member mirror (guild_members) is left: it is Discord's own member list of servers the person is
 * still in, which the next gateway event or fill would write back (and the bot needs it to act on them);
 * it goes when they leave the server.
 */
async function eraseRows(ctx: AppContext, { userId, pseudonym, vrcUserId }: ErasureRequest) {
  const ids = vrcUserId ? [userId, vrcUserId] : [userId];
  await ctx.db.transaction(async (tx) => {
    const run = (query: ReturnType<typeof sql>) => tx.execute(query);
    // Theirs: gone.
    await run(sql`delete from sessions where user_id = ${userId}`);
    await run(sql`delete from login_tokens where user_id = ${userId}`);
    await run(sql`delete from discord_tokens where user_id = ${userId}`);
    await run(sql`delete from link_events where discord_user_id = ${userId}`);
    await run(sql`delete from guests where host_user_id = ${userId} or guest_discord_id = ${userId}`);
    await run(sql`delete from guild_permissions where user_id = ${userId}`);
    await run(sql`delete from sdk_login_requests where approved_by = ${userId}`);
    await run(sql`delete from cooldowns where strpos(key, ${userId}) > 0`);
    await run(
      sql`delete from rate_limits where key = ${`rate:${userRateKey(ctx.config.secretKey, userId)}`}`,
    );
    await run(sql`delete from users where id = ${userId}`);
    // A server's records they made stay, made by the pseudonym.
    await run(sql`update guild_permissions set granted_by = ${pseudonym} where granted_by = ${userId}`);
    await run(sql`update api_keys set created_by = ${pseudonym} where created_by = ${userId}`);
    await run(sql`update world_images set created_by = ${pseudonym} where created_by = ${userId}`);
    await run(sql`update world_atlas_state set requested_by = ${pseudonym} where requested_by = ${userId}`);
    await run(sql`update api_log set user_id = ${pseudonym} where user_id = ${userId}`);
    // Audit entries stay (servers' history), pseudonymised: ids replaced, display names dropped.
    const names = sql.raw(`array[${NAME_KEYS.map((k) => `'${k}'`).join(',')}]`);
    for (const id of ids) {
      await run(sql`update audit_log
        set details = (replace(details::text, ${id}, ${pseudonym})::jsonb) - ${names}
        where strpos(details::text, ${id}) > 0`);
      await run(sql`update audit_log set details = details - ${names}
        where details is not null and (actor_id = ${id} or target_id = ${id})`);
      await run(sql`update audit_log set actor_id = ${pseudonym} where actor_id = ${id}`);
      await run(sql`update audit_log set target_id = ${pseudonym} where target_id = ${id}`);
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
