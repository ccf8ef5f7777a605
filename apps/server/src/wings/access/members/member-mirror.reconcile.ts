import { randomUUID } from 'node:crypto';
import { inArray, notInArray, sql } from 'drizzle-orm';
import { guildMemberSync } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { gatewayGuilds } from '../../../platforms/discord/guild-cache.js';
import { endGrantsOfDepartedMembers } from '../permissions/permissions.service.js';
import { mirrorDeps } from './member-mirror.events.js';
import { fillGuild } from './member-mirror.fill.js';
import { dropGuild } from './member-mirror.store.js';

/**
 * The guilds ordered smallest first: Discord's member count from the gateway where this process holds it,
 * else the count the last fill stored (a server never filled counts as empty).
 */
export async function smallestFirst(ctx: AppContext, guildIds: string[]): Promise<string[]> {
  if (guildIds.length < 2) return guildIds;
  const stored = await ctx.db
    .select({ guildId: guildMemberSync.guildId, memberCount: guildMemberSync.memberCount })
    .from(guildMemberSync)
    .where(inArray(guildMemberSync.guildId, guildIds));
  const counts = new Map(stored.map((r) => [r.guildId, r.memberCount]));
  const cache = ctx.platforms?.bot.client.guilds.cache;
  const size = (id: string) => cache?.get(id)?.memberCount ?? counts.get(id) ?? 0;
  return [...guildIds].sort((a, b) => size(a) - size(b) || a.localeCompare(b));
}

/**
 * Fills the mirror of these guilds one after another, smallest first, so most servers are complete soon
 * (op 8 requests share the connection's send limit; `member-source.ts` spaces them out). A guild that
 * fails is logged and the others go on.
 */
export async function fillGuilds(ctx: AppContext, guildIds: string[], signal?: AbortSignal): Promise<void> {
  const deps = mirrorDeps(ctx);
  for (const guildId of await smallestFirst(ctx, guildIds)) {
    if (signal?.aborted) return;
    try {
      await fillGuild(deps, guildId);
    } catch (err) {
      ctx.log.warn({ err, guildId }, 'Members: mirror fill failed (the next reconciliation retries)');
    }
  }
}

/** The NOTIFY channel on which every gateway holder hears that the member reconciliation was asked for. */
export const MEMBERS_RECONCILE_CHANNEL = 'vrclink_members_reconcile';

/** Names this process in its own NOTIFY, so it does not reconcile its shards twice (in the job and on hearing it). */
const THIS_PROCESS = randomUUID();

/**
 * Full reconciliation of the member mirror (the scheduled task runs it every 6 hours; the bot fills when it
 * (re)connects), in whichever process runs the job: mirrors of servers the bot left are dropped (a server of a
 * shard nobody holds keeps its snapshot, so its mirror stays), and every gateway holder is asked to reconcile the
 * servers of its own shards over its own gateway (NOTIFY; `reconcileHeldGuildMembers`), this process's in the
 * job. A server whose shard nobody holds now is left alone: its next holder fills it at READY. Never throws for
 * one server's failure; stops between servers when `signal` aborts (the next run starts over).
 */
export async function reconcileAllGuildMembers(ctx: AppContext, signal?: AbortSignal): Promise<void> {
  const guildIds = await ctx.discord.botGuildIds();
  const gone = await ctx.db
    .select({ guildId: guildMemberSync.guildId })
    .from(guildMemberSync)
    .where(guildIds.length ? notInArray(guildMemberSync.guildId, guildIds) : undefined);
  for (const { guildId } of gone) await dropGuild(ctx.db, guildId);
  // Embedded PGlite has one process only: nobody else to ask.
  if (ctx.config.databaseUrl)
    await ctx.db.execute(sql`select pg_notify(${MEMBERS_RECONCILE_CHANNEL}, ${THIS_PROCESS})`);
  await reconcileHeldGuildMembers(ctx, signal);
}

/** Whether a reconciliation NOTIFY came from another process (this one reconciles its own in the job). */
export const reconcileAskedByOther = (payload: string | undefined) => payload !== THIS_PROCESS;

/**
 * Reconciles the servers of the shards this process holds, over its gateway: where the Server Members intent
 * was switched on or off in the portal, it reconnects with the right intents first; each server is filled
 * again (which deletes the rows Discord no longer confirms; without the intent, only the linked members known
 * to be in it are read), and grants of members found gone (a leave missed while offline) end.
 */
export async function reconcileHeldGuildMembers(ctx: AppContext, signal?: AbortSignal): Promise<void> {
  const platforms = ctx.platforms;
  if (!platforms) return;
  await platforms.bot.refreshIntents().catch((err) => {
    ctx.log.warn({ err }, 'Members: could not check the Server Members intent');
  });
  const guildIds = gatewayGuilds(platforms.bot.client).guildIds();
  await fillGuilds(ctx, guildIds, signal);
  for (const guildId of guildIds) {
    if (signal?.aborted) return;
    try {
      await endGrantsOfDepartedMembers(ctx, guildId);
    } catch (err) {
      ctx.log.warn({ err, guildId }, 'Permissions: could not end the grants of departed members');
    }
  }
}
