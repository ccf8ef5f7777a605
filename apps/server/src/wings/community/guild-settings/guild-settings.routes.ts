import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { errorResponses } from '../../../http/errors.js';
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

/** The Discord tab: server overview, auto-assigned roles, contact e-mail and guest-role entries. */
export async function guildSettingsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId',
    {
      schema: {
        operationId: 'getGuildSettings',
        tags: ['guild-settings'],
        description:
          'Needs ViewGuild. The server with its member and linked-member counts, roles (no @everyone, highest first) and settings.',
        params: guildParams,
        response: { 200: guildSettingsResponse, ...errorResponses },
      },
    },
    async (req) => getGuildSettings(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId',
    {
      schema: {
        operationId: 'updateAutoAssignRoles',
        tags: ['guild-settings'],
        description:
          'Needs Admin. Sets (id), clears (null) or keeps (left out) each auto-assigned role; a new role must be one the bot can give (400 naming it otherwise).',
        params: guildParams,
        body: autoAssignRolesUpdate,
        response: { 200: guildSettingsResponse, ...errorResponses },
      },
    },
    async (req) =>
      updateAutoAssignRoles(ctx, requireActor(req), req.params.guildId, req.body.autoAssignRoles),
  );

  app.post(
    '/guilds/:guildId/contact',
    {
      schema: {
        operationId: 'setContactEmail',
        tags: ['guild-settings'],
        description:
          "Needs ManageImages. The contact e-mail World Images requires; 400 'Please enter a valid email address.' otherwise.",
        params: guildParams,
        body: contactUpdate,
        response: { 200: z.object({ contactEmail: z.string() }), ...errorResponses },
      },
    },
    async (req) => setContactEmail(ctx, requireActor(req), req.params.guildId, req.body.email),
  );

  app.get(
    '/guilds/:guildId/guest_roles',
    {
      schema: {
        operationId: 'listGuestRoles',
        tags: ['guild-settings'],
        description: 'Needs ViewGuild. The guest-role entries, oldest first.',
        params: guildParams,
        response: { 200: guestRolesResponse, ...errorResponses },
      },
    },
    async (req) => listGuestRoles(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId/guest_roles',
    {
      schema: {
        operationId: 'createGuestRole',
        tags: ['guild-settings'],
        description:
          'Needs Admin. Adds an empty entry (no roles, count 0) and answers the whole list; at most 25 per server (409).',
        params: guildParams,
        response: { 200: guestRolesResponse, ...errorResponses },
      },
    },
    async (req) => createGuestRole(ctx, requireActor(req), req.params.guildId),
  );

  app.put(
    '/guilds/:guildId/guest_roles',
    {
      schema: {
        operationId: 'updateGuestRole',
        tags: ['guild-settings'],
        description:
          'Needs Admin. Changes an entry (null clears a role, a field left out keeps it; count 0 to 25). Hosts left with fewer slots lose their newest guests.',
        params: guildParams,
        body: guestRoleUpdate,
        response: { 200: guestRoleEntry, ...errorResponses },
      },
    },
    async (req) => updateGuestRole(ctx, requireActor(req), req.params.guildId, req.body),
  );

  app.delete(
    '/guilds/:guildId/guest_roles/:guestRoleId',
    {
      schema: {
        operationId: 'deleteGuestRole',
        tags: ['guild-settings'],
        description: 'Needs Admin. Removes an entry; hosts left with fewer slots lose their newest guests.',
        params: guestRoleParams,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await deleteGuestRole(ctx, requireActor(req), req.params.guildId, req.params.guestRoleId);
      return reply.code(204).send();
    },
  );
}
