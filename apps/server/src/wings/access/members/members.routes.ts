import { z } from 'zod';
import { ageVerificationValues } from '../../../db/schema/links.js';
import { requireActor } from '../../../http/auth.js';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { memberDetails, memberFilters, memberSearchFields, searchMembers } from './members.service.js';

const memberResult = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  vrcName: z.string().nullable(),
  vrcId: z.string().nullable(),
  /** How many times the link was made or removed. */
  linkCount: z.number().int(),
  linkLastChanged: z.string().nullable(),
  isVerified: z.boolean(),
  ageVerified: z.enum(ageVerificationValues),
});
z.globalRegistry.add(memberResult, { id: 'MemberSearchResult' });

const route = routeSchemas({ tag: 'members' });

export async function membersRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/members/:guildId',
    route({
      operationId: 'searchMembers',
      description: 'Needs ViewGuild. Members of the server with their link state, 25 a page.',
      params: z.object({ guildId: snowflake }),
      querystring: z.object({
        search: z.string().max(100).optional(),
        searchBy: z.enum(memberSearchFields).default('DiscordName'),
        /** linked: has a VRChat link; unlinked: has none; unverified: linked without proven ownership. */
        filter: z.enum(memberFilters).default('all'),
        sort: z.enum(['Username']).optional(),
        page: z.coerce.number().int().min(1).max(100_000).default(1),
      }),
      response: {
        200: z.object({
          results: z.array(memberResult),
          totalCount: z.number().int(),
          totalPages: z.number().int(),
          /** True without the Server Members intent: only members with a VRChat link are kept and listed. */
          linkedOnly: z.boolean(),
        }),
      },
    }),
    async (req) => searchMembers(ctx, requireActor(req), req.params.guildId, req.query),
  );

  app.get(
    '/members/:guildId/:memberId',
    route({
      operationId: 'getMemberDetails',
      description: "Needs ViewGuild. The member's Discord roles.",
      params: z.object({ guildId: snowflake, memberId: snowflake }),
      querystring: z.object({ includeRoles: z.enum(['true', 'false']).optional() }),
      response: {
        200: z.object({
          id: z.string(),
          discordRoles: z.array(
            z.object({
              id: z.string(),
              name: z.string(),
              color: z.number().int(),
              position: z.number().int(),
            }),
          ),
        }),
      },
    }),
    async (req) => memberDetails(ctx, requireActor(req), req.params.guildId, req.params.memberId),
  );
}
