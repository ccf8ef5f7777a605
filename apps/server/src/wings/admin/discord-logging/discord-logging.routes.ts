import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { guildChannels, guildParams, loggingConfig, loggingConfigUpdate } from './discord-logging.schemas.js';
import { getLoggingConfig, listPostableChannels, updateLoggingConfig } from './discord-logging.service.js';
import { watchDiscordLogOutbox } from './outbox-nudge.js';

const route = routeSchemas({ tag: 'discord-logging' });

/** 'Logging to Discord' on the Management tab: the channel choices and the server's logging settings. */
export async function discordLoggingRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  const stop = watchDiscordLogOutbox(ctx);
  app.addHook('onClose', async () => stop());

  app.get(
    '/guilds/channels/:guildId/channels',
    route({
      operationId: 'listGuildChannels',
      description:
        "Needs Admin. The server's text channels the bot can post log embeds in (View Channel, Send Messages and Embed Links), in Discord's order.",
      params: guildParams,
      response: { 200: guildChannels },
    }),
    async (req) => listPostableChannels(ctx, requireActor(req), req.params.guildId),
  );

  app.get(
    '/guilds/logging/:guildId/config',
    route({
      operationId: 'getLoggingConfig',
      description:
        'Needs ViewGuild. The log channel (null: off), the kinds of events posted, every kind offered, and the problem the last delivery met, if any.',
      params: guildParams,
      response: { 200: loggingConfig },
    }),
    async (req) => getLoggingConfig(ctx, requireActor(req), req.params.guildId),
  );

  app.patch(
    '/guilds/logging/:guildId/config',
    route({
      operationId: 'updateLoggingConfig',
      description:
        'Needs Admin. Sets the log channel (a text channel the bot can post in; null turns logging off) and/or the kinds of events posted. Audit-logged; clears a recorded delivery problem.',
      params: guildParams,
      body: loggingConfigUpdate,
      response: { 200: loggingConfig },
    }),
    async (req) => updateLoggingConfig(ctx, requireActor(req), req.params.guildId, req.body),
  );
}
