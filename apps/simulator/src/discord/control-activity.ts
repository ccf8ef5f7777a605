import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, snowflake } from './control-parse.js';
import { ControlError } from './errors.js';
import type { Gateway } from './gateway.js';
import { createInteraction, interactionPayload } from './interactions.js';
import { messageObject } from './serialize.js';
import type { DiscordState } from './state.js';

/** Control routes for what happens in the world: slash commands, messages, tokens, gateway sessions. */

const interactionBody = z.object({
  guildId: snowflake,
  userId: snowflake,
  commandName: z.string().min(1),
  channelId: snowflake.optional(),
  options: z
    .union([
      z.array(
        z.object({
          name: z.string(),
          type: z.number().optional(),
          value: z.union([z.string(), z.number(), z.boolean()]).optional(),
          options: z.array(z.any()).optional(),
        }),
      ),
      z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    ])
    .optional(),
});

function interactionView(state: DiscordState, id: string) {
  const i = state.interactions.get(id);
  if (!i) throw new ControlError(404, `Unknown interaction ${id}.`);
  return {
    id: i.id,
    guildId: i.guildId,
    channelId: i.channelId,
    userId: i.userId,
    commandName: i.commandName,
    options: i.options,
    deliveredTo: i.deliveredTo,
    acknowledged: i.callback !== null,
    callback: i.callback,
    ephemeral: i.ephemeral,
    original: i.original ? messageObject(state, i.original) : null,
    followups: i.followups.map((m) => messageObject(state, m)),
  };
}

export function registerActivityControl(api: FastifyInstance, state: DiscordState, gateway: Gateway): void {
  /** A member runs a slash command: INTERACTION_CREATE goes to the connected session of the guild's shard. */
  api.post('/interactions', async (req, reply) => {
    const interaction = createInteraction(state, parse(interactionBody, req.body));
    // Like every guild event, only the session of the guild's shard receives it.
    interaction.deliveredTo = gateway.connectedFor(interaction.guildId).length;
    state.dispatch('INTERACTION_CREATE', interactionPayload(state, interaction), interaction.guildId);
    return reply.code(201).send({
      interactionId: interaction.id,
      token: interaction.token,
      deliveredTo: interaction.deliveredTo,
    });
  });

  api.get<{ Params: { id: string } }>('/interactions/:id', async (req) =>
    interactionView(state, req.params.id),
  );

  /** Oldest first (a transcript), unlike the API's newest-first listing. */
  api.get<{ Params: { channelId: string } }>('/channels/:channelId/messages', async (req) => {
    if (!state.channel(req.params.channelId)) throw new ControlError(404, 'Unknown channel.');
    return state.channelMessages(req.params.channelId).map((m) => messageObject(state, m));
  });

  api.get<{ Params: { userId: string } }>('/users/:userId/role-connection', async (req) => {
    return state.roleConnections.get(req.params.userId) ?? null;
  });

  api.post('/oauth2/expire-tokens', async (req) => {
    const body = parse(z.object({ userId: snowflake.optional() }), req.body);
    return { expired: state.oauth.expireAccessTokens(body.userId) };
  });

  api.get('/gateway', async () => ({
    sessions: gateway.connected().map((s) => ({ id: s.id, intents: s.intents, seq: s.seq, shard: s.shard })),
    identifyRefusedTooSoon: gateway.identifyLimits.refusedTooSoon,
    sendLimitClosures: gateway.sendLimitClosures,
    resumedElsewhere: gateway.resumedElsewhere,
  }));
  api.post('/gateway/reconnect', async () => ({ sessions: gateway.requestReconnect() }));
  api.post('/gateway/invalidate', async () => ({ sessions: gateway.invalidateAll() }));
  api.post('/gateway/disconnect', async (req) => {
    const body = parse(z.object({ code: z.number().int().min(1000).max(4999).optional() }), req.body);
    return { sessions: gateway.disconnectAll(body.code ?? 4000) };
  });
}
