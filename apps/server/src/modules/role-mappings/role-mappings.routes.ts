import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { requireActor } from '../../http/auth.js';
import { errorResponses } from '../../http/errors.js';
import type { ZodApp } from '../../http/types.js';
import {
  createDiscordToGroup,
  deleteDiscordToGroup,
  listDiscordToGroup,
  updateDiscordToGroup,
} from './discord-to-group.service.js';
import {
  createGroupToDiscord,
  deleteGroupToDiscord,
  listGroupToDiscord,
  updateGroupToDiscord,
} from './group-to-discord.service.js';
import {
  createdMapping,
  discordGroupMapping,
  discordGroupMappingUpdate,
  groupDiscordMapping,
  groupDiscordMappingUpdate,
  groupRolesResponse,
  guildParams,
  guildRolesResponse,
  mappingParams,
} from './role-mappings.schemas.js';

const tags = ['role-mappings'];
const NEEDS = 'Needs Admin; 404 when the server has no linked VRChat group.';

/** The VRChat tab's two role-mapping tables: Discord roles to group actions, group roles to Discord roles. */
export async function roleMappingsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId/guild_roles',
    {
      schema: {
        operationId: 'listDiscordToGroupMappings',
        tags,
        description: `${NEEDS} The Discord to group entries with the roles they may name, and the @everyone entry (made with action None on first read).`,
        params: guildParams,
        response: { 200: guildRolesResponse, ...errorResponses },
      },
    },
    async (req) => listDiscordToGroup(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId/guild_roles',
    {
      schema: {
        operationId: 'createDiscordToGroupMapping',
        tags,
        description: `${NEEDS} Adds an empty entry (no roles, action None) and answers its id.`,
        params: guildParams,
        response: { 200: createdMapping, ...errorResponses },
      },
    },
    async (req) => createDiscordToGroup(ctx, requireActor(req), req.params.guildId),
  );

  app.put(
    '/guilds/:guildId/guild_roles',
    {
      schema: {
        operationId: 'updateDiscordToGroupMapping',
        tags,
        description: `${NEEDS} Changes an entry (null clears a role, a field left out keeps it). The group role is kept for GrantRolePermanent, GrantRoleTemporary and RevokeRole only; the @everyone entry allows None or Membership. A role the server or group does not offer (purchase-only, owner, managed) is refused with a sentence naming it.`,
        params: guildParams,
        body: discordGroupMappingUpdate,
        response: { 200: discordGroupMapping, ...errorResponses },
      },
    },
    async (req) => updateDiscordToGroup(ctx, requireActor(req), req.params.guildId, req.body),
  );

  app.delete(
    '/guilds/:guildId/guild_roles/:roleId',
    {
      schema: {
        operationId: 'deleteDiscordToGroupMapping',
        tags,
        description: `${NEEDS} Removes an entry by its id (404 when unknown; 400 for the @everyone entry).`,
        params: mappingParams,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await deleteDiscordToGroup(ctx, requireActor(req), req.params.guildId, req.params.roleId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/groups/:guildId/group_roles',
    {
      schema: {
        operationId: 'listGroupToDiscordMappings',
        tags,
        description: `${NEEDS} The group to Discord entries with the roles they may name.`,
        params: guildParams,
        response: { 200: groupRolesResponse, ...errorResponses },
      },
    },
    async (req) => listGroupToDiscord(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/groups/:guildId/group_roles',
    {
      schema: {
        operationId: 'createGroupToDiscordMapping',
        tags,
        description: `${NEEDS} Adds an empty entry (no roles, action None) and answers its id.`,
        params: guildParams,
        response: { 200: createdMapping, ...errorResponses },
      },
    },
    async (req) => createGroupToDiscord(ctx, requireActor(req), req.params.guildId),
  );

  app.put(
    '/groups/:guildId/group_roles',
    {
      schema: {
        operationId: 'updateGroupToDiscordMapping',
        tags,
        description: `${NEEDS} Changes an entry (null clears a role, a field left out keeps it). The Discord role is kept for the grant actions only and must be one the bot can give (400 naming it otherwise); purchase-only and owner group roles are refused.`,
        params: guildParams,
        body: groupDiscordMappingUpdate,
        response: { 200: groupDiscordMapping, ...errorResponses },
      },
    },
    async (req) => updateGroupToDiscord(ctx, requireActor(req), req.params.guildId, req.body),
  );

  app.delete(
    '/groups/:guildId/group_roles/:roleId',
    {
      schema: {
        operationId: 'deleteGroupToDiscordMapping',
        tags,
        description: `${NEEDS} Removes an entry by its id (404 when unknown).`,
        params: mappingParams,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await deleteGroupToDiscord(ctx, requireActor(req), req.params.guildId, req.params.roleId);
      return reply.code(204).send();
    },
  );
}
