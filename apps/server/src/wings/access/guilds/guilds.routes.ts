import { z } from 'zod';
import { requireUser } from '../../../http/auth.js';
import { errorBody } from '../../../http/errors.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { guildPermission } from '../permissions/permissions.routes.js';
import { listManageableGuilds } from './guilds.service.js';

const manageableGuild = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  /** Effective permissions, implied ones included. */
  permissions: z.array(guildPermission),
});
z.globalRegistry.add(manageableGuild, { id: 'ManageableGuild' });

export async function guildsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds',
    {
      schema: {
        operationId: 'listGuilds',
        tags: ['guilds'],
        description:
          'Servers (with the bot) where the caller holds any permission: Discord owner, Administrator or Manage Server, or a grant.',
        response: { 200: z.array(manageableGuild), 401: errorBody, 502: errorBody, 503: errorBody },
      },
    },
    async (req) => listManageableGuilds(ctx, requireUser(req).user.id),
  );
}
