import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BULK_MAX, bulkAddMembers } from './bulk-members.js';
import { parse, snowflake } from './control-parse.js';
import { ControlError } from './errors.js';
import type { DiscordState } from './state.js';

const bulkBody = z.object({
  count: z.number().int().min(1).max(BULK_MAX),
  rolesPerMember: z.number().min(0).max(20).optional(),
  roleIds: z.array(snowflake).optional(),
});

/** Seeding for scale tests: see bulk-members.ts. */
export function registerBulkControl(api: FastifyInstance, state: DiscordState): void {
  api.post<{ Params: { guildId: string } }>('/guilds/:guildId/bulk-members', async (req, reply) => {
    const guild = state.guilds.get(req.params.guildId);
    if (!guild) throw new ControlError(404, `Unknown guild ${req.params.guildId}.`);
    const body = parse(bulkBody, req.body);
    return reply.code(201).send({ guildId: guild.id, ...bulkAddMembers(state, guild, body) });
  });
}
