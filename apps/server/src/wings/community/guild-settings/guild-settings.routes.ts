import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { createGuestRole, deleteGuestRole, listGuestRoles, updateGuestRole } from './guest-roles.service.js';
import {
  autoAssignRolesUpdate,
  contactUpdate,
  guestRoleEntry,
  guestRoleParams,
  guestRolesResponse,
  guestRoleUpdate,
  guildParams,
  guildSettingsResponse,
} from './guild-settings.schemas.js';
import { getGuildSettings, setContactEmail, updateAutoAssignRoles } from './guild-settings.service.js';

const route = routeSchemas({ tag: 'guild-settings' });

/** The Discord tab: server overview, auto-assigned roles, contact e-mail and guest-role entries. */
export async function guildSettingsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId',
    route({
      operationId: 'getGuildSettings',
      description:
        'Needs ViewGuild. The server with its member and linked-member counts, roles (no @everyone, highest first) and settings.',
      params: guildParams,
      response: { 200: guildSettingsResponse },
    }),
    async (req) => getGuildSettings(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId',
    route({
      operationId: 'updateAutoAssignRoles',
      description:
        "Needs Admin. Sets (id), clears (null) or keeps (left out) each auto-assigned role; a new role must be one the bot can give (400 naming it otherwise). With `version` (from the read), 409 when another manager saved since. A role a setting stops managing is taken back by the next sync from the members that setting gave it to (oldRoles 'take', the default) or left on them ('keep').",
      params: guildParams,
      body: autoAssignRolesUpdate,
      response: { 200: guildSettingsResponse },
    }),
    async (req) =>
      updateAutoAssignRoles(
        ctx,
        requireActor(req),
        req.params.guildId,
        req.body.autoAssignRoles,
        req.body.version,
        req.body.oldRoles,
      ),
  );

  app.post(
    '/guilds/:guildId/contact',
    route({
      operationId: 'setContactEmail',
      description:
        "Needs ManageImages. The contact e-mail World Images requires; 400 'Please enter a valid email address.' otherwise.",
      params: guildParams,
      body: contactUpdate,
      response: { 200: z.object({ contactEmail: z.string() }) },
    }),
    async (req) => setContactEmail(ctx, requireActor(req), req.params.guildId, req.body.email),
  );

  app.get(
    '/guilds/:guildId/guest_roles',
    route({
      operationId: 'listGuestRoles',
      description: 'Needs ViewGuild. The guest-role entries, oldest first.',
      params: guildParams,
      response: { 200: guestRolesResponse },
    }),
    async (req) => listGuestRoles(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId/guest_roles',
    route({
      operationId: 'createGuestRole',
      description:
        'Needs Admin. Adds an empty entry (no roles, count 0) and answers the whole list; at most 25 per server (409).',
      params: guildParams,
      response: { 200: guestRolesResponse },
    }),
    async (req) => createGuestRole(ctx, requireActor(req), req.params.guildId),
  );

  app.put(
    '/guilds/:guildId/guest_roles',
    route({
      operationId: 'updateGuestRole',
      description:
        'Needs Admin. Changes an entry (null clears a role, a field left out keeps it; count 0 to 25). Hosts left with fewer slots lose their newest guests.',
      params: guildParams,
      body: guestRoleUpdate,
      response: { 200: guestRoleEntry },
    }),
    async (req) => updateGuestRole(ctx, requireActor(req), req.params.guildId, req.body),
  );

  app.delete(
    '/guilds/:guildId/guest_roles/:guestRoleId',
    route({
      operationId: 'deleteGuestRole',
      description: 'Needs Admin. Removes an entry; hosts left with fewer slots lose their newest guests.',
      params: guestRoleParams,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deleteGuestRole(ctx, requireActor(req), req.params.guildId, req.params.guestRoleId);
      return reply.code(204).send();
    },
  );
}
