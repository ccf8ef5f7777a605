import type { FastifyInstance } from 'fastify';
import { discordApp } from '../../demo.js';
import {
  alreadyAcknowledged,
  invalidForm,
  unknownInteraction,
  unknownMessage,
  unknownWebhook,
} from '../errors.js';
import { findByToken } from '../interactions.js';
import { createMessage, EPHEMERAL, editMessage, parseMessage, postToChannel } from '../messages.js';
import { messageObject } from '../serialize.js';
import type { DiscordState } from '../state.js';
import type { SimInteraction, SimMessage } from '../types.js';
import { queryBool } from '../validate.js';

type CallbackParams = {
  Params: { interaction_id: string; interaction_token: string };
  Querystring: Record<string, string>;
};
type WebhookParams = {
  Params: { webhook_id: string; webhook_token: string; message_id?: string };
  Querystring: Record<string, string>;
};

const CHANNEL_MESSAGE = 4;
const DEFERRED_CHANNEL_MESSAGE = 5;
const MODAL = 9;
/** Message flag Discord sets on the "is thinking…" placeholder of a deferred reply. */
const LOADING = 1 << 7;

function newReply(i: SimInteraction, body: unknown, opts: { allowEmpty?: boolean } = {}) {
  const input = parseMessage(body, opts);
  return createMessage(input, {
    channelId: i.channelId,
    guildId: i.guildId,
    authorId: discordApp.botUserId,
    webhookId: i.applicationId,
  });
}

function show(state: DiscordState, message: SimMessage): void {
  if ((message.flags & EPHEMERAL) === 0) postToChannel(state, message);
}

/** The webhook side of an interaction: application id + token, valid for 15 minutes. */
function interactionForWebhook(state: DiscordState, params: WebhookParams['Params']): SimInteraction {
  const i = findByToken(state, params.webhook_token);
  if (!i || params.webhook_id !== i.applicationId) throw unknownWebhook();
  if (Date.now() - i.createdAt > state.config.interactionTokenTtlMs) throw unknownWebhook();
  return i;
}

export function registerInteractionRoutes(api: FastifyInstance, state: DiscordState): void {
  /** Needs no Authorization (the token is the credential); must come within the acknowledgement window. */
  api.post<CallbackParams>(
    '/interactions/:interaction_id/:interaction_token/callback',
    async (req, reply) => {
      const i = state.interactions.get(req.params.interaction_id);
      if (!i || i.token !== req.params.interaction_token) throw unknownInteraction();
      if (i.callback) throw alreadyAcknowledged();
      if (Date.now() - i.createdAt > state.config.interactionAckWindowMs) throw unknownInteraction();
      const body = (req.body ?? {}) as { type?: unknown; data?: Record<string, unknown> };
      const type = body.type;
      if (type === CHANNEL_MESSAGE) {
        i.original = newReply(i, body.data ?? {});
        i.original.interactionId = i.id;
      } else if (type === DEFERRED_CHANNEL_MESSAGE) {
        i.original = newReply(i, body.data ?? {}, { allowEmpty: true });
        i.original.interactionId = i.id;
        i.original.flags |= LOADING;
      } else if (type !== MODAL) {
        throw invalidForm({ type: ['BASE_TYPE_CHOICES', 'Value must be one of {4, 5, 9}.'] });
      }
      i.callback = { type, data: body.data ?? null, at: new Date().toISOString() };
      if (i.original) {
        i.ephemeral = (i.original.flags & EPHEMERAL) !== 0;
        show(state, i.original);
      }
      if (!queryBool(req.query.with_response)) return reply.code(204).send();
      return {
        interaction: {
          id: i.id,
          type: 2,
          activity_instance_id: null,
          response_message_id: i.original?.id,
          response_message_loading: type === DEFERRED_CHANNEL_MESSAGE,
          response_message_ephemeral: i.ephemeral,
          channel_id: i.channelId,
          guild_id: i.guildId,
        },
        ...(type === CHANNEL_MESSAGE && i.original
          ? { resource: { type, message: messageObject(state, i.original) } }
          : {}),
      };
    },
  );

  // One route per method serves both `@original` and message ids: discord.js sends `%40original`,
  // which the router does not match against a literal `@original` segment.
  const message = '/webhooks/:webhook_id/:webhook_token/messages/:message_id';
  const find = (i: SimInteraction, id: string | undefined): SimMessage => {
    const found = id === '@original' ? i.original : i.followups.find((m) => m.id === id);
    if (!found) throw unknownMessage();
    return found;
  };

  api.get<WebhookParams>(message, async (req) => {
    const i = interactionForWebhook(state, req.params);
    return messageObject(state, find(i, req.params.message_id));
  });

  /** editReply(): also how a deferred reply gets its content. */
  api.patch<WebhookParams>(message, async (req) => {
    const i = interactionForWebhook(state, req.params);
    const target = find(i, req.params.message_id);
    editMessage(target, parseMessage(req.body, { allowEmpty: true }));
    target.flags &= ~LOADING;
    return messageObject(state, target);
  });

  api.delete<WebhookParams>(message, async (req, reply) => {
    const i = interactionForWebhook(state, req.params);
    const target = find(i, req.params.message_id);
    const list = state.channelMessages(i.channelId);
    const at = list.indexOf(target);
    if (at >= 0) list.splice(at, 1);
    if (target === i.original) i.original = null;
    else i.followups = i.followups.filter((m) => m !== target);
    return reply.code(204).send();
  });

  /** followUp(): only after the initial response; `wait=true` (discord.js always sends it) returns the message. */
  api.post<WebhookParams>('/webhooks/:webhook_id/:webhook_token', async (req, reply) => {
    const i = interactionForWebhook(state, req.params);
    if (!i.callback) throw unknownWebhook();
    const message = newReply(i, req.body);
    i.followups.push(message);
    show(state, message);
    if (!queryBool(req.query.wait)) return reply.code(204).send();
    return messageObject(state, message);
  });
}
