import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BULK_GUILDS_MAX, bulkCreateGuilds } from './bulk-guilds.js';
import { BULK_MAX, bulkAddMembers } from './bulk-members.js';
import { parse, snowflake } from './control-parse.js';
import { ControlError } from './errors.js';
import type { DiscordState } from './state.js';

const bulkBody = z.object({
  count: z.number().int().min(1).max(BULK_MAX),
  rolesPerMember: z.number().min(0).max(20).optional(),
  roleIds: z.array(snowflake).optional(),
});

const bulkGuildsBody = z
  .object({
    count: z.number().int().min(1).max(BULK_GUILDS_MAX),
    withBot: z.boolean().optional(),
    membersPerGuild: z.number().int().min(0).max(BULK_MAX).optional(),
  })
  .strict();

/** Seeding for scale tests: see bulk-members.ts and bulk-guilds.ts. */
export function registerBulkControl(api: FastifyInstance, state: DiscordState): void {
  api.post<{ Params: { guildId: string } }>('/guilds/:guildId/bulk-members', async (req, reply) => {
    const guild = state.guilds.get(req.params.guildId);
    if (!guild) throw new ControlError(404, `Unknown guild ${req.params.guildId}.`);
    const body = parse(bulkBody, req.body);
    return reply.code(201).send({ guildId: guild.id, ...bulkAddMembers(state, guild, body) });
  });

  api.post('/bulk-guilds', async (req, reply) =>
    reply.code(201).send(bulkCreateGuilds(state, parse(bulkGuildsBody, req.body))),
  );
}
