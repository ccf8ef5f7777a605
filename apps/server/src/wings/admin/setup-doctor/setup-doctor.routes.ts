import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { runSetupCheck } from './setup-doctor.service.js';

const setupCheckResult = z.object({
  checks: z.array(
    z.object({
      id: z.string(),
      area: z.enum(['discord', 'vrchat']),
      title: z.string(),
      ok: z.boolean(),
      problem: z.string().nullable(),
      fix: z.string().nullable(),
    }),
  ),
  checkedAt: z.string(),
});
z.globalRegistry.add(setupCheckResult, { id: 'SetupCheckResult' });

const route = routeSchemas({ tag: 'setup-doctor' });

/** The setup doctor behind the 'Check setup' panels of the Discord and VRChat tabs. */
export async function setupDoctorRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId/setup_check',
    route({
      operationId: 'checkSetup',
      description:
        "Needs ViewGuild. What would stop the bot from doing its job here (Manage Roles, roles above the bot's or deleted, the log channel, the bot's VRChat group membership and permissions, the group's join state), each with a one-line fix. Platform calls are bounded by a deadline; a check that could not be made says so.",
      params: z.object({ guildId: snowflake }),
      response: { 200: setupCheckResult },
    }),
    async (req) => runSetupCheck(ctx, requireActor(req), req.params.guildId),
  );
}
