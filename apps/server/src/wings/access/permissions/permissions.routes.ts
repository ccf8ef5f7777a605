import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { guildPermissionValues } from './guild-permissions.js';
import { deletePermissions, listPermissions, setPermissions } from './permissions.service.js';

const route = routeSchemas({ tag: 'permissions' });

export const guildPermission = z.enum(guildPermissionValues);
z.globalRegistry.add(guildPermission, { id: 'GuildPermission' });
const entry = z.object({
  userId: z.string(),
  username: z.string().nullable(),
  avatar: z.string().nullable(),
  permissions: z.array(guildPermission),
  /** True for an admin Discord makes (no entry here): shown read-only, nothing to edit or delete. */
  implicit: z.boolean(),
  /** Why Discord makes this user Admin here, or null. */
  reason: z.enum(['Server owner', 'Discord Administrator', 'Manage Server']).nullable(),
});
const params = z.object({ guildId: snowflake, userId: snowflake });

export async function permissionsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/permissions/:guildId',
    route({
      operationId: 'getGuildPermissions',
      description:
        'Users granted permissions in the server, then the admins Discord makes (owner, Administrator or Manage Server role holders) as implicit read-only rows (Admin only).',
      params: z.object({ guildId: snowflake }),
      response: { 200: z.object({ users: z.array(entry) }) },
    }),
    async (req) => listPermissions(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/permissions/:guildId/:userId',
    route({
      operationId: 'setGuildPermissions',
      description: "Replaces the user's granted permissions (Admin only).",
      params,
      body: z.object({ permissions: z.array(guildPermission).max(guildPermissionValues.length * 2) }),
      response: {
        200: z.object({
          userId: z.string(),
          permissions: z.array(guildPermission),
          effective: z.array(guildPermission),
        }),
      },
    }),
    async (req) =>
      setPermissions(ctx, requireActor(req), req.params.guildId, req.params.userId, req.body.permissions),
  );

  app.delete(
    '/guilds/permissions/:guildId/:userId',
    route({
      operationId: 'deleteGuildPermissions',
      params,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deletePermissions(ctx, requireActor(req), req.params.guildId, req.params.userId);
      return reply.code(204).send();
    },
  );
}
