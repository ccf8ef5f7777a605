import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocketServer } from 'ws';
import { ApiCounters } from '../api-counters.js';
import type { SimContext } from '../context.js';
import { applyFault, holdAnswer } from '../faults.js';
import { useDiscordBodyParsers } from './body-parsers.js';
import { registerDiscordCdn } from './cdn.js';
import { registerDiscordControl } from './control.js';
import type { DiscordLimits } from './control-application.js';
import { InvalidRequestGuard, refuseUserAgent } from './edge.js';
import { DiscordApiError, notFound } from './errors.js';
import { Gateway } from './gateway.js';
import { registerAuthorizeRedirect, registerAuthorizeRoutes } from './oauth-authorize.js';
import { registerTokenRoutes } from './oauth-token.js';
import { errorPage } from './pages/authorize.js';
import { serverPage } from './pages/server.js';
import { GlobalRateLimiter, RateLimiter, writeDiscord429 } from './ratelimit.js';
import { gatewayUrl, registerApplicationRoutes, registerOAuthInfoRoute } from './rest/application.js';
import { registerChannelRoutes } from './rest/channels.js';
import { registerCommandRoutes } from './rest/commands.js';
import { registerGuildRoutes } from './rest/guilds.js';
import { registerInteractionRoutes } from './rest/interactions.js';
import { registerMemberRoutes } from './rest/members.js';
import { registerRoleConnectionRoutes } from './rest/role-connections.js';
import { registerUserRoutes } from './rest/users.js';
import { DiscordState } from './state.js';

export { seedGuildIds, seedUserIds } from './seed.js';

/** Discord's envelope for everything that goes wrong under /api; 5xx details only in a debug header. */
function discordErrorHandler(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof DiscordApiError) return reply.code(err.status).send(err.body);
  if (err.statusCode === 413)
    return reply.code(413).send({ message: 'Request entity too large', code: 40005 });
  if (err.statusCode && err.statusCode < 500)
    return reply.code(err.statusCode).send({ message: `${err.statusCode}: ${err.message}`, code: 0 });
  return reply
    .code(500)
    .header('X-Simulator-Error', encodeURIComponent(err.message).slice(0, 500))
    .send({ message: '500: Internal Server Error', code: 0 });
}

/**
 * The Discord half of the simulator: REST under /api/v10 (+ unversioned OAuth2 under /api/oauth2),
 * the bot gateway at /discord/gateway, the OAuth2 authorize and server pages at the root, the CDN
 * (avatars, guild icons) under /cdn (outside /api: not a REST operation) and the control API under
 * /control/discord.
 */
export async function registerDiscord(
  app: FastifyInstance,
  ctx: SimContext,
  addSocket: (path: string) => WebSocketServer,
): Promise<void> {
  const timeScale = ctx.options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error('timeScale must be a positive number.');
  const state = new DiscordState(timeScale, ctx.options.discordGateway);
  if (ctx.options.redirectUris !== undefined)
    state.config.redirectUris = ctx.options.redirectUris && [...ctx.options.redirectUris];
  const limits: DiscordLimits = {
    global: new GlobalRateLimiter(() => state.config.globalRateLimitPerSecond, timeScale),
    invalid: new InvalidRequestGuard(() => state.config, timeScale),
    routes: new RateLimiter(ctx.options.discordRate, timeScale),
    counters: new ApiCounters(),
  };
  const gateway = new Gateway(state, addSocket('/discord/gateway'), {
    heartbeatMs: ctx.options.gatewayHeartbeatMs ?? 41_250,
    url: () => gatewayUrl(ctx.baseUrl()),
  });

  const api = (prefix: string, routes: (api: FastifyInstance) => void) =>
    app.register(
      async (instance) => {
        useDiscordBodyParsers(instance);
        instance.setErrorHandler(discordErrorHandler);
        instance.setNotFoundHandler(() => {
          throw notFound();
        });
        instance.addHook('onRoute', (route) => {
          for (const method of [route.method].flat())
            if (method !== 'HEAD') state.apiRoutes.push({ method, url: route.url });
        });
        // Cloudflare first (ban, User-Agent), then the API's own limits: global, then per route.
        instance.addHook('onRequest', async (req, reply) => {
          if (limits.invalid.refuseBanned(req, reply)) return reply;
          if (refuseUserAgent(req, reply)) return reply;
          if (await applyFault(ctx.faults, 'discord', req, reply, writeDiscord429)) return reply;
          if (await limits.global.onRequest(req, reply)) return reply;
          if (await limits.routes.onRequest(req, reply)) return reply;
        });
        instance.addHook('onSend', async (req, _reply, payload) => {
          ctx.faults.carriedOut(req);
          await holdAnswer(req);
          return payload;
        });
        instance.addHook('onResponse', async (req, reply) => {
          limits.invalid.record(req, reply);
          limits.counters.record(req, reply);
        });
        routes(instance);
      },
      { prefix },
    );

  await api('/api/v10', (v10) => {
    registerUserRoutes(v10, state);
    registerGuildRoutes(v10, state);
    registerMemberRoutes(v10, state);
    registerChannelRoutes(v10, state);
    registerCommandRoutes(v10, state);
    registerRoleConnectionRoutes(v10, state);
    registerInteractionRoutes(v10, state);
    registerApplicationRoutes(v10, state, ctx.baseUrl);
    registerTokenRoutes(v10, state, '/oauth2');
    registerAuthorizeRedirect(v10, '/oauth2/authorize');
  });
  // Unversioned OAuth2 endpoints, as most OAuth libraries call them.
  await api('/api/oauth2', (oauth) => {
    registerTokenRoutes(oauth, state, '');
    registerOAuthInfoRoute(oauth, state, '/@me');
    registerAuthorizeRedirect(oauth, '/authorize');
  });

  await app.register(async (web) => {
    useDiscordBodyParsers(web);
    registerAuthorizeRoutes(web, state);
    web.get<{ Params: { guildId: string; channelId?: string } }>(
      '/channels/:guildId/:channelId?',
      async (req, reply) => {
        const guild = state.guilds.get(req.params.guildId);
        const channelId = req.params.channelId;
        if (!guild || (channelId && !guild.channels.has(channelId)))
          return reply.code(404).type('text/html').send(errorPage('Unknown server or channel.'));
        return reply.type('text/html').send(serverPage(state, guild, channelId));
      },
    );
  });

  await app.register(async (cdn) => registerDiscordCdn(cdn, state), { prefix: '/cdn' });

  await app.register(
    async (control) => {
      useDiscordBodyParsers(control);
      registerDiscordControl(control, state, gateway, limits);
    },
    { prefix: '/control/discord' },
  );
}
