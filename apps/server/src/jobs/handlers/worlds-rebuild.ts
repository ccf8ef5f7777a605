import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { worlds } from '../../db/schema/index.js';
import { rebuildWorldData } from '../../modules/worlds/world-data.service.js';
import { defineJob } from '../define.js';

/**
 * Keeps the world data of every enabled world fresh in the database, so downloads are answered from the
 * stored body. One world failing (bot removed, platform down) is logged and the others still build; the
 * last good body keeps being served.
 */
export const worldsRebuildJob = defineJob({
  name: 'worlds.rebuild',
  payload: z.object({}),
  // The next run is a minute away: retrying sooner only piles up builds.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 60, method: 'rebuildEnabledWorlds' },
  async run(ctx) {
    const enabled = await ctx.db.select().from(worlds).where(eq(worlds.enabled, true));
    let failed = 0;
    for (const world of enabled) {
      await rebuildWorldData(ctx, world).catch((err) => {
        failed += 1;
        ctx.log.warn({ err, worldId: world.id }, 'worlds.rebuild: world data not rebuilt');
      });
    }
    ctx.log.debug({ worlds: enabled.length, failed }, 'worlds.rebuild: done');
  },
});
