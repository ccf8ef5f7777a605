import { and, eq, isNotNull, max } from 'drizzle-orm';
import { worldAtlasState, worldImageSlots, worlds } from '../../../db/schema/index.js';
import { jobActor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { isAppError } from '../../../kernel/errors.js';
import { worldsAtlasRefreshJob } from '../../../kernel/job-catalog.js';
import { atlasOutOfDate, claimAndQueue } from './world-atlas.service.js';

/** How often the scheduled regeneration looks (its task's default timer). */
/**
 * Debounce: a world whose slots changed this recently waits for a later run, so a manager changing several
 * slots gets one generation when they are done, not one per change.
 */
export const ATLAS_REFRESH_QUIET_MS = 2 * 60_000;
/** Generations queued per run at most (each is a sharp job); the rest come at the next runs. */
const MAX_PER_RUN = 20;

/**
 * The scheduled regeneration: every world that has atlases (generated at least once), is not generating,
 * and whose slots no longer match them gets a generation queued, as the job (audit-logged with reason
 * `outOfDate`), once its slots have been quiet for ATLAS_REFRESH_QUIET_MS. A failed generation is left for
 * the manager (the dialog shows why); a world whose atlases were never generated is not started here.
 */
export async function regenerateOutOfDateAtlases(
  ctx: AppContext,
  now = Date.now(),
): Promise<{ queued: number; waiting: number }> {
  const candidates = await ctx.db
    .select({ state: worldAtlasState, guildId: worlds.guildId })
    .from(worldAtlasState)
    .innerJoin(worlds, eq(worlds.id, worldAtlasState.worldId))
    .where(and(isNotNull(worldAtlasState.lastGeneration), eq(worldAtlasState.status, 'idle')));
  let queued = 0;
  let waiting = 0;
  for (const { state, guildId } of candidates) {
    if (queued >= MAX_PER_RUN) break;
    if (!(await atlasOutOfDate(ctx.db, state.worldId, state))) continue;
    const [latest] = await ctx.db
      .select({ at: max(worldImageSlots.updatedAt) })
      .from(worldImageSlots)
      .where(eq(worldImageSlots.worldId, state.worldId));
    if (latest?.at && now - new Date(latest.at).getTime() < ATLAS_REFRESH_QUIET_MS) {
      waiting += 1;
      continue;
    }
    try {
      await claimAndQueue(ctx, jobActor(worldsAtlasRefreshJob.name), guildId, state.worldId, {
        reason: 'outOfDate',
      });
      queued += 1;
    } catch (err) {
      // Someone pressed Generate meanwhile (409): that run makes them current.
      if (isAppError(err, 'conflict')) continue;
      ctx.log.warn({ err, worldId: state.worldId }, 'world atlas: scheduled regeneration not queued');
    }
  }
  if (queued || waiting) ctx.log.info({ queued, waiting }, 'world atlas: out-of-date atlases');
  return { queued, waiting };
}
