import { z } from 'zod';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { guestHost, refuseOthersGuest } from './guests.access.js';
import { assignGuest, getGuestInfo, searchGuests, unassignGuest } from './guests.service.js';

const guildParams = z.object({ guildId: snowflake });
const guest = z.object({
  id: z.string(),
  guestUsername: z.string().nullable(),
  guestVrcName: z.string().nullable(),
  guestVrcId: z.string().nullable(),
  guestProfilePicUrl: z.string().nullable(),
});
z.globalRegistry.add(guest, { id: 'Guest' });
const guestInfo = z.object({
  slotsCount: z.number().int(),
  primaryRoleName: z.string(),
  guestRoleName: z.string(),
  guests: z.array(guest),
});
const searchResult = z.object({
  isDiscordUser: z.boolean(),
  discordId: z.string().optional(),
  discordName: z.string().optional(),
  discordIcon: z.string().nullable().optional(),
  hasLinkedVrc: z.boolean().optional(),
  vrcId: z.string().optional(),
  vrcName: z.string().optional(),
  profileUrl: z.string().optional(),
});

const route = routeSchemas({ tag: 'guests' });

export async function guestsRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/users/guests/:guildId',
    route({
      operationId: 'getGuests',
      params: guildParams,
      response: { 200: guestInfo },
    }),
    async (req) => getGuestInfo(ctx, req.params.guildId, await guestHost(ctx, req, req.params.guildId)),
  );

  app.get(
    '/users/guests/:guildId/search',
    route({
      operationId: 'searchGuests',
      description:
        'Either memberQuery (Discord members of the server) or vrcQuery (VRChat users, once per 5 s).',
      params: guildParams,
      querystring: z
        .object({
          memberQuery: z.string().trim().min(1).max(100).optional(),
          vrcQuery: z.string().trim().min(1).max(100).optional(),
        })
        .refine(
          (q) => Boolean(q.memberQuery) !== Boolean(q.vrcQuery),
          'give exactly one of memberQuery and vrcQuery',
        ),
      response: { 200: z.object({ results: z.array(searchResult) }) },
    }),
    async (req) =>
      searchGuests(ctx, req.params.guildId, await guestHost(ctx, req, req.params.guildId), req.query),
  );

  app.post(
    '/users/guests/:guildId/assign',
    route({
      operationId: 'assignGuest',
      params: guildParams,
      body: z.union([
        z.object({ discordId: snowflake }).strict(),
        z
          .object({
            vrcId: z.string().regex(/^usr_[0-9a-zA-Z-]{1,64}$/),
            vrcDisplayName: z.string().max(100),
          })
          .strict(),
      ]),
      response: { 200: guest },
    }),
    async (req) =>
      assignGuest(ctx, req.params.guildId, await guestHost(ctx, req, req.params.guildId), req.body),
  );

  app.delete(
    '/users/guests/:guildId/unassign/:guestEntryId',
    route({
      operationId: 'unassignGuest',
      params: z.object({ guildId: snowflake, guestEntryId: z.uuid() }),
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      const { guildId, guestEntryId } = req.params;
      const hostId = await guestHost(ctx, req, guildId);
      await refuseOthersGuest(ctx, guildId, hostId, guestEntryId);
      await unassignGuest(ctx, guildId, hostId, guestEntryId);
      return reply.code(204).send();
    },
  );
}
