import { eq, inArray, or } from 'drizzle-orm';
import { worlds } from '../../db/schema/index.js';
import { worldsRebuildJob } from '../../kernel/job-catalog.js';
import { rebuildWorldData } from '../../wings/worlds/worlds/world-data.service.js';
import { recentlyRequestedWorldIds } from '../../wings/worlds/worlds/world-requests.js';
import { handleJob } from '../define.js';

/**
 * Keeps world data fresh: every world downloaded within the last hour or so (the request counts) and every
 * world mirrored to GitHub ('Github Updates Enabled') is rebuilt, stored and announced (NOTIFY world_data),
 * so the processes serving it swap the body in memory without building it themselves. One world failing
 * (platform down) is logged and the others still build; the last good body keeps being served. A world
 * whose server the bot left stops being served.
 */
export const worldsRebuildHandler = handleJob(worldsRebuildJob, async (ctx, _payload, signal) => {
  const requested = await recentlyRequestedWorldIds(ctx.db);
  const due = await ctx.db
    .select()
    .from(worlds)
    .where(
      requested.length
        ? or(eq(worlds.enabled, true), inArray(worlds.id, requested))
        : eq(worlds.enabled, true),
    );
  let failed = 0;
  for (const world of due) {
    // Time is up: the next run rebuilds them all again anyway.
    if (signal.aborted) break;
    await rebuildWorldData(ctx, world).catch((err) => {
      failed += 1;
      ctx.log.warn({ err, worldId: world.id }, 'worlds.rebuild: world data not rebuilt');
    });
  }
  ctx.log.debug({ worlds: due.length, failed }, 'worlds.rebuild: done');
});
