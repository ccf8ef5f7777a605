import { inArray, notInArray } from 'drizzle-orm';
import { guildMemberSync } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
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

/**
 * Full reconciliation of the member mirror for every server the bot is in (the scheduled task runs it
 * every 6 hours; the bot fills when it (re)connects): servers the bot left are dropped, and each server
 * is filled again, which deletes the rows Discord no longer confirms. Where this process holds the
 * gateway and the Server Members intent was switched on or off in the portal, it reconnects with the
 * right intents first. Grants of members found gone (a leave missed while offline) end too. Never throws
 * for one server's failure. Stops between servers when `signal` aborts (the next run starts over).
 */
export async function reconcileAllGuildMembers(ctx: AppContext, signal?: AbortSignal): Promise<void> {
  await ctx.platforms?.bot.refreshIntents().catch((err) => {
    ctx.log.warn({ err }, 'Members: could not check the Server Members intent');
  });
  const guildIds = await ctx.discord.botGuildIds();
  const gone = await ctx.db
    .select({ guildId: guildMemberSync.guildId })
    .from(guildMemberSync)
    .where(guildIds.length ? notInArray(guildMemberSync.guildId, guildIds) : undefined);
  for (const { guildId } of gone) await dropGuild(ctx.db, guildId);
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
