import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { worldRequestsOfGuild } from './world-requests.js';
import { guildParams } from './worlds.schemas.js';

const worldRequestsResponse = z.object({
  /** The start of the first hour counted. */
  since: z.string(),
  /** Worlds with at least one download in the window; the others had none. */
  worlds: z.array(z.object({ worldId: z.uuid(), last24h: z.number().int() })),
});
z.globalRegistry.add(worldRequestsResponse, { id: 'WorldRequests' });

const route = routeSchemas({ tag: 'worlds' });

export async function worldRequestsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId/worlds/requests',
    route({
      operationId: 'listWorldRequests',
      description:
        'Needs ViewWorlds. Downloads of each world’s data over the last 24 hours (counted per process, stored each minute).',
      params: guildParams,
      response: { 200: worldRequestsResponse },
    }),
    async (req) => worldRequestsOfGuild(ctx, requireActor(req), req.params.guildId),
  );
}
