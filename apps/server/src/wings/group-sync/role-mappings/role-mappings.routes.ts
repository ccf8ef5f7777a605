import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { discordToGroup, listDiscordToGroup } from './discord-to-group.service.js';
import { groupToDiscord, listGroupToDiscord } from './group-to-discord.service.js';
import { createMapping, deleteMapping, type MappingSpec, updateMapping } from './mapping-entries.js';
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

const route = routeSchemas({ tag: 'role-mappings' });
const NEEDS = 'Needs Admin; 404 when the server has no linked VRChat group.';

/** One direction's four routes: what differs is its address, names, schemas, listing and descriptions. */
interface MappingRoutes<E, U extends { id: string }> {
  path: string;
  /** The operation ids' middle: `list${name}Mappings`, `create${name}Mapping`, … */
  name: string;
  spec: MappingSpec<E, U>;
  list: (ctx: AppContext, actor: Actor, guildId: string) => Promise<unknown>;
  listResponse: z.ZodType;
  entry: z.ZodType;
  update: z.ZodType<U>;
  describe: { list: string; update: string; delete: string };
}

function mappingRoutes<E, U extends { id: string }>(app: ZodApp, ctx: AppContext, r: MappingRoutes<E, U>) {
  app.get(
    r.path,
    route({
      operationId: `list${r.name}Mappings`,
      description: `${NEEDS} ${r.describe.list}`,
      params: guildParams,
      response: { 200: r.listResponse },
    }),
    async (req) => r.list(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    r.path,
    route({
      operationId: `create${r.name}Mapping`,
      description: `${NEEDS} Adds an empty entry (no roles, action None) and answers its id.`,
      params: guildParams,
      response: { 200: createdMapping },
    }),
    async (req) => createMapping(ctx, requireActor(req), req.params.guildId, r.spec),
  );

  app.put(
    r.path,
    route({
      operationId: `update${r.name}Mapping`,
      description: `${NEEDS} Changes an entry (null clears a role, a field left out keeps it). ${r.describe.update}`,
      params: guildParams,
      body: r.update,
      response: { 200: r.entry },
    }),
    // The body passed r.update, whose output is U.
    async (req) => updateMapping(ctx, requireActor(req), req.params.guildId, r.spec, req.body as U),
  );

  app.delete(
    `${r.path}/:roleId`,
    route({
      operationId: `delete${r.name}Mapping`,
      description: `${NEEDS} ${r.describe.delete}`,
      params: mappingParams,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deleteMapping(ctx, requireActor(req), req.params.guildId, r.spec, req.params.roleId);
      return reply.code(204).send();
    },
  );
}

/** The VRChat tab's two role-mapping tables: Discord roles to group actions, group roles to Discord roles. */
export async function roleMappingsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  mappingRoutes(app, ctx, {
    path: '/guilds/:guildId/guild_roles',
    name: 'DiscordToGroup',
    spec: discordToGroup,
    list: listDiscordToGroup,
    listResponse: guildRolesResponse,
    entry: discordGroupMapping,
    update: discordGroupMappingUpdate,
    describe: {
      list: 'The Discord to group entries with the roles they may name, and the @everyone entry (made with action None on first read).',
      update:
        'The group role is kept for GrantRolePermanent, GrantRoleTemporary and RevokeRole only; the @everyone entry allows None or Membership. A role the server or group does not offer (purchase-only, owner, managed) is refused with a sentence naming it.',
      delete: 'Removes an entry by its id (404 when unknown; 400 for the @everyone entry).',
    },
  });
  mappingRoutes(app, ctx, {
    path: '/groups/:guildId/group_roles',
    name: 'GroupToDiscord',
    spec: groupToDiscord,
    list: listGroupToDiscord,
    listResponse: groupRolesResponse,
    entry: groupDiscordMapping,
    update: groupDiscordMappingUpdate,
    describe: {
      list: 'The group to Discord entries with the roles they may name.',
      update:
        'The Discord role is kept for the grant actions only and must be one the bot can give (400 naming it otherwise); purchase-only and owner group roles are refused.',
      delete: 'Removes an entry by its id (404 when unknown).',
    },
  });
}
