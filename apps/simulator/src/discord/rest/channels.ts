import type { FastifyInstance } from 'fastify';
import { requireBot } from '../auth.js';
import { channelPermissionsOf } from '../channel-permissions.js';
import { missingAccess, missingPermissions } from '../errors.js';
import { createMessage, messageWithNonce, parseMessage, postToChannel, rememberNonce } from '../messages.js';
import { has, Permission } from '../permissions.js';
import { messageObject } from '../serialize.js';
import { compareSnowflakes } from '../snowflake.js';
import type { DiscordState } from '../state.js';
import { queryInt, querySnowflake } from '../validate.js';

type ChannelParams = { Params: { channel_id: string }; Querystring: Record<string, string> };

export function registerChannelRoutes(api: FastifyInstance, state: DiscordState): void {
  api.post<ChannelParams>('/channels/:channel_id/messages', async (req) => {
    const bot = requireBot(state, req);
    const { guild, channel } = state.requireChannel(req.params.channel_id);
    if (!state.isBotIn(guild)) throw missingAccess();
    const body = parseMessage(req.body);
    // As Discord: a channel the bot cannot see is 50001; sending (and embeds) need their permissions.
    const perms = channelPermissionsOf(state, guild, channel, bot.userId);
    if (!has(perms, Permission.ViewChannel)) throw missingAccess();
    if (!has(perms, Permission.SendMessages)) throw missingPermissions();
    if (body.embeds?.length && !has(perms, Permission.EmbedLinks)) throw missingPermissions();
    // The same author's message with the same nonce, a few minutes old at most: answered again, nothing new.
    const earlier = messageWithNonce(state, bot.userId, body);
    if (earlier) return messageObject(state, earlier);
    const message = createMessage(body, {
      channelId: channel.id,
      guildId: guild.id,
      authorId: bot.userId,
    });
    postToChannel(state, message);
    rememberNonce(state, message);
    const payload = messageObject(state, message);
    state.dispatch('MESSAGE_CREATE', { ...payload, guild_id: guild.id }, guild.id);
    return payload;
  });

  /** Newest first, like Discord; `before`/`after` page by message id. */
  api.get<ChannelParams>('/channels/:channel_id/messages', async (req) => {
    requireBot(state, req);
    const { guild, channel } = state.requireChannel(req.params.channel_id);
    if (!state.isBotIn(guild)) throw missingAccess();
    const limit = queryInt(req.query.limit, 'limit', 1, 100, 50);
    const before = querySnowflake(req.query.before, 'before');
    const after = querySnowflake(req.query.after, 'after');
    let list = [...state.channelMessages(channel.id)].reverse();
    if (before) list = list.filter((m) => compareSnowflakes(m.id, before) < 0);
    if (after) list = list.filter((m) => compareSnowflakes(m.id, after) > 0).slice(-limit);
    return list.slice(0, limit).map((m) => messageObject(state, m));
  });
}
