import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { checkGroupLink, joinGroupLink, startGroupLink } from './group-link.service.js';
import {
  groupIdBody,
  groupLinkInfo,
  groupSettingsUpdate,
  guildParams,
  linkCheckResult,
  linkedGroup,
  linkJoinResult,
} from './groups.schemas.js';
import { getLinkedGroup, unlinkGroup, updateGroupSettings } from './groups.service.js';

const route = routeSchemas({ tag: 'groups' });

/** The VRChat tab: the server's linked group, its settings, unlinking and the description-code link flow. */
export async function groupsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/groups/:guildId',
    route({
      operationId: 'getLinkedGroup',
      description:
        "Needs ViewGuild. The linked VRChat group with its counts and settings (404 when none is linked; 'Unknown' with zero counts when VRChat no longer finds it).",
      params: guildParams,
      response: { 200: linkedGroup },
    }),
    async (req) => getLinkedGroup(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/groups/:guildId',
    route({
      operationId: 'updateGroupSettings',
      description: 'Needs Admin. Turns one setting (enabled or autoKick) on or off; answers the group.',
      params: guildParams,
      body: groupSettingsUpdate,
      response: { 200: linkedGroup },
    }),
    async (req) => updateGroupSettings(ctx, requireActor(req), req.params.guildId, req.body),
  );

  app.delete(
    '/groups/:guildId',
    route({
      operationId: 'unlinkGroup',
      description: 'Needs Admin. Unlinks the group (404 when none is linked).',
      params: guildParams,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await unlinkGroup(ctx, requireActor(req), req.params.guildId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/groups/:guildId/link/start',
    route({
      operationId: 'startGroupLink',
      description:
        'Needs Admin. The group and the link code to put into its description (stable until used, 24 hours at most); 404 when VRChat does not know the group, 409 when the server already has a group or another server holds this one.',
      params: guildParams,
      body: groupIdBody,
      response: { 200: groupLinkInfo },
    }),
    async (req) => startGroupLink(ctx, requireActor(req), req.params.guildId, req.body.groupId),
  );

  app.post(
    '/groups/:guildId/link/check',
    route({
      operationId: 'checkGroupLink',
      description: "Needs Admin. Whether the group's description carries the link code.",
      params: guildParams,
      body: groupIdBody,
      response: { 200: linkCheckResult },
    }),
    async (req) => checkGroupLink(ctx, requireActor(req), req.params.guildId, req.body.groupId),
  );

  app.post(
    '/groups/:guildId/link/join',
    route({
      operationId: 'joinGroupLink',
      description:
        "Needs Admin. With the code in the description, the bot's VRChat account joins the group (or asks to) and, once a member, the link is stored (Member). Requested: a join request waits to be accepted; Invited: the group is invite-only, invite the bot; Unknown: VRChat refused.",
      params: guildParams,
      body: groupIdBody,
      response: { 200: linkJoinResult },
    }),
    async (req) => joinGroupLink(ctx, requireActor(req), req.params.guildId, req.body.groupId),
  );
}
