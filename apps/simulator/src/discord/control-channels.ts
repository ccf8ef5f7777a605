import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, snowflake } from './control-parse.js';
import { ControlError } from './errors.js';
import { channelObject } from './serialize.js';
import { newSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimChannel, SimOverwrite } from './types.js';

/** Control routes for text channels: create one, change its name or permission overwrites, delete it. */

const bits = z.string().regex(/^\d+$/);
const overwrite = z.object({
  id: snowflake,
  type: z.union([z.literal(0), z.literal(1)]),
  allow: bits.default('0'),
  deny: bits.default('0'),
});
const channelBody = z.object({
  name: z.string().min(1).max(100).optional(),
  permissionOverwrites: z.array(overwrite).optional(),
});

const toOverwrites = (list: z.infer<typeof overwrite>[]): SimOverwrite[] =>
  list.map((o) => ({ id: o.id, type: o.type, allow: BigInt(o.allow), deny: BigInt(o.deny) }));

export function registerChannelControl(api: FastifyInstance, state: DiscordState): void {
  const requireChannel = (id: string) => {
    const found = state.channel(id);
    if (!found) throw new ControlError(404, `Unknown channel ${id}.`);
    return found;
  };

  /** A new text channel at the bottom of the list; CHANNEL_CREATE. */
  api.post<{ Params: { guildId: string } }>('/guilds/:guildId/channels', async (req, reply) => {
    const guild = state.guilds.get(req.params.guildId);
    if (!guild) throw new ControlError(404, `Unknown guild ${req.params.guildId}.`);
    const body = parse(channelBody.extend({ name: z.string().min(1).max(100) }), req.body);
    const channel: SimChannel = {
      id: newSnowflake(),
      guildId: guild.id,
      name: body.name,
      type: 0,
      position: guild.channels.size,
      topic: null,
      lastMessageId: null,
      permissionOverwrites: toOverwrites(body.permissionOverwrites ?? []),
    };
    guild.channels.set(channel.id, channel);
    state.dispatch('CHANNEL_CREATE', channelObject(channel), guild.id);
    return reply.code(201).send(channelObject(channel));
  });

  /** Renames the channel or replaces its permission overwrites; CHANNEL_UPDATE. */
  api.patch<{ Params: { channelId: string } }>('/channels/:channelId', async (req) => {
    const { guild, channel } = requireChannel(req.params.channelId);
    const body = parse(channelBody, req.body);
    if (body.name !== undefined) channel.name = body.name;
    if (body.permissionOverwrites) channel.permissionOverwrites = toOverwrites(body.permissionOverwrites);
    state.dispatch('CHANNEL_UPDATE', channelObject(channel), guild.id);
    return channelObject(channel);
  });

  /** Deletes the channel (its messages stay readable through GET /channels/{id}/messages); CHANNEL_DELETE. */
  api.delete<{ Params: { channelId: string } }>('/channels/:channelId', async (req, reply) => {
    const { guild, channel } = requireChannel(req.params.channelId);
    guild.channels.delete(channel.id);
    state.dispatch('CHANNEL_DELETE', channelObject(channel), guild.id);
    return reply.code(204).send();
  });
}
