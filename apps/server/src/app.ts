import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions, LogController, type preHandlerHookHandler } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { registerAuth } from './http/auth.js';
import { ConstantAnswers } from './http/constant-answers.js';
import { registerDrain } from './http/drain.js';
import { registerErrorHandler } from './http/errors.js';
import { type DrainState, fastPathServerFactory } from './http/fast-path-server.js';
import { registerLoopbackRedirect } from './http/loopback-redirect.js';
import { withRetryAfterHeaders } from './http/openapi-headers.js';
import { registerRateLimit } from './http/rate-limit.js';
import { logsEveryRequest, registerRequestLogging } from './http/request-logging.js';
import { frameworkErrors, registerRouteResponses } from './http/route-responses.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { compiledSerializerCompiler } from './http/serializer.js';
import type { ZodApp } from './http/types.js';
import type { AppConfig } from './kernel/config.js';
import type { AppContext } from './kernel/context.js';
import { countConstantAnswer, registerHttpMetrics } from './observability/http-metrics.js';
import { runInteractive, vrchatShareOf } from './platforms/vrchat/interactive.js';
import { serverDir } from './server-dir.js';
import { findApiKey } from './wings/access/api-keys/api-key-lookup.js';
import { apiKeysRoutes } from './wings/access/api-keys/api-keys.routes.js';
import { guildsRoutes } from './wings/access/guilds/guilds.routes.js';
import { membersRoutes } from './wings/access/members/members.routes.js';
import { permissionsRoutes } from './wings/access/permissions/permissions.routes.js';
import { adminRoutes } from './wings/admin/admin/admin.routes.js';
import { apiLogRoutes } from './wings/admin/api-v1/api-log.routes.js';
import { apiV1Routes } from './wings/admin/api-v1/api-v1.routes.js';
import { auditLogRoutes } from './wings/admin/audit-log/audit-log.routes.js';
import { discordLoggingRoutes } from './wings/admin/discord-logging/discord-logging.routes.js';
import { healthRoutes } from './wings/admin/health/health.routes.js';
import { apiCallsOf } from './wings/admin/index.js';
import { metaRoutes } from './wings/admin/meta/meta.routes.js';
import { setupDoctorRoutes } from './wings/admin/setup-doctor/setup-doctor.routes.js';
import { guestsRoutes } from './wings/community/guests/guests.routes.js';
import { guildSettingsRoutes } from './wings/community/guild-settings/guild-settings.routes.js';
import { guestDataOf } from './wings/community/index.js';
import { profileRoutes } from './wings/community/profile/profile.routes.js';
import { groupsRoutes } from './wings/group-sync/groups/groups.routes.js';
import { roleMappingsRoutes } from './wings/group-sync/role-mappings/role-mappings.routes.js';
import { syncRoutes } from './wings/group-sync/sync/sync.routes.js';
import { authRoutes } from './wings/identity/auth/auth.routes.js';
import { findSession } from './wings/identity/auth/session.service.js';
import { startSessionInvalidation } from './wings/identity/auth/session-cache.js';
import { linksRoutes } from './wings/identity/links/links.routes.js';
import { privacyRoutes } from './wings/identity/privacy/privacy.routes.js';
import { sdkRoutes } from './wings/identity/sdk/sdk.routes.js';
import { imageDataOf } from './wings/worlds/index.js';
import { vpmRoutes } from './wings/worlds/vpm/vpm.routes.js';
import { atlasDataRoutes } from './wings/worlds/world-atlas/atlas-data.routes.js';
import { worldAtlasRoutes } from './wings/worlds/world-atlas/world-atlas.routes.js';
import { worldImagesRoutes } from './wings/worlds/world-images/world-images.routes.js';
import {
  worldMirrorAdminRoutes,
  worldMirrorServeRoutes,
} from './wings/worlds/world-mirror/world-mirror.routes.js';
import { DATA_NOT_FOUND, worldDataRoutes } from './wings/worlds/worlds/world-data.routes.js';
import { worldDataCacheOf } from './wings/worlds/worlds/world-data.service.js';
import { WORLD_DATA_CONTENT_TYPE, WorldDataFastPath } from './wings/worlds/worlds/world-data-fast-path.js';
import { worldRequestsRoutes } from './wings/worlds/worlds/world-requests.routes.js';
import { worldsRoutes } from './wings/worlds/worlds/worlds.routes.js';

const defaultWebDist = join(serverDir, '../web/dist');

/** Fastify's types lack the hop count its runtime accepts: the same rule as a function. */
function fastifyTrustProxy(value: AppConfig['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

export interface BuildAppOptions {
  /** The process's context (createContext); the app logs with its logger. */
  ctx: AppContext;
  /** Folder of the built web app; served with SPA fallback when it exists. */
  webDist?: string | null;
}

/**
 * Builds the HTTP server (the `api` role): API under /api, OpenAPI at /api/openapi.json, the web app
 * everywhere else. It wires no gateway events: the `bot` role does (main.ts).
 */
export async function buildApp(opts: BuildAppOptions): Promise<{ app: ZodApp; ctx: AppContext }> {
  const { ctx } = opts;
  // World data downloads (issue #10 §5) and answers the same for everyone (GET /api/config) are answered
  // from memory before Fastify routes them.
  const worldDataFastPath = new WorldDataFastPath(worldDataCacheOf(ctx));
  const constantAnswers = new ConstantAnswers(ctx.config.secretKey, countConstantAnswer);
  const drain: DrainState = { closing: false };
  const app = Fastify({
    serverFactory: fastPathServerFactory(
      // Per-request logging (LOG_LEVEL debug) logs every answer: then Fastify gives them all.
      logsEveryRequest(ctx.config.logLevel) ? [worldDataFastPath] : [worldDataFastPath, constantAnswers],
      drain,
    ),
    // Forwarded headers only from the proxies TRUST_PROXY names: anyone could send them.
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    loggerInstance: ctx.log,
    // Two log lines per request only at LOG_LEVEL debug/trace; otherwise server errors and slow requests.
    logController: new LogController({ disableRequestLogging: !logsEveryRequest(ctx.config.logLevel) }),
    // A bad address or an overlong path parameter: answered as `{message}` like every other error.
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Production serializes with compiled schemas; tests and development validate every answer with zod.
  app.setSerializerCompiler(
    ctx.config.nodeEnv === 'production' ? compiledSerializerCompiler : serializerCompiler,
  );
  // The spec's client sends JSON bodies as patch-JSON; it is plain JSON to us.
  app.addContentTypeParser(
    'application/json-patch+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );
  registerErrorHandler(app);
  registerDrain(app, drain);
  registerRequestLogging(app, ctx.config.logLevel);
  registerRouteResponses(app);
  registerHttpMetrics(app, ctx);

  worldDataFastPath.useSecurityHeaders((await registerSecurityHeaders(app, ctx.config)).worldData);
  // localhost typed for the printed 127.0.0.1: the login would fail between the two names.
  registerLoopbackRedirect(app, ctx.config.publicUrl);
  await app.register(fastifyCookie);
  registerAuth(app, ctx.db, { findSession, findApiKey }, ctx.config.secretKey);
  // Other processes' logouts reach this one's session cache (PostgreSQL LISTEN).
  const stopSessionInvalidation = startSessionInvalidation(ctx.database, (err) =>
    ctx.log.warn({ err }, 'Session invalidation: the LISTEN connection broke; reconnecting'),
  );
  app.addHook('onClose', () => stopSessionInvalidation());
  registerRateLimit(app, ctx.db, ctx.config.rateLimit, ctx.config.secretKey);
  constantAnswers.collect(app);
  app.addHook('onListen', () => constantAnswers.record(app));
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'VRCLink API', version: '1.0.0', description: 'Link Discord and VRChat accounts.' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'vrclink_session' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => withRetryAfterHeaders(jsonSchemaTransformObject(input)),
  });
  // No validator badge: it would load an image from validator.swagger.io, which the CSP does not allow.
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });

  await app.register(
    async (api) => {
      // VRChat calls made for an API request give up after a deadline while VRChat rate limits us. Routes that
      // make none (config.platformCalls false) skip the context: it costs on every request.
      // Each caller (session, API key, else address) has a share of the VRChat budget of its own.
      const interactive: preHandlerHookHandler = (req, _reply, done) =>
        runInteractive(done, vrchatShareOf(req));
      api.addHook('onRoute', (route) => {
        if (route.config?.platformCalls === false) return;
        const own = route.preHandler ? [route.preHandler].flat() : [];
        route.preHandler = [interactive, ...own];
      });
      const zapi = api.withTypeProvider<ZodTypeProvider>();
      zapi.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await healthRoutes(zapi, ctx);
      await metaRoutes(zapi, ctx);
      await authRoutes(zapi, ctx);
      await linksRoutes(zapi, ctx);
      await profileRoutes(zapi, ctx);
      await privacyRoutes(zapi, ctx, { guests: guestDataOf, worldImages: imageDataOf, apiCalls: apiCallsOf });
      await guestsRoutes(zapi, ctx);
      await sdkRoutes(zapi, ctx);
      await vpmRoutes(zapi, ctx);
      await guildsRoutes(zapi, ctx);
      await guildSettingsRoutes(zapi, ctx);
      await groupsRoutes(zapi, ctx);
      await syncRoutes(zapi, ctx);
      await roleMappingsRoutes(zapi, ctx);
      await permissionsRoutes(zapi, ctx);
      await worldsRoutes(zapi, ctx);
      await worldImagesRoutes(zapi, ctx);
      await worldAtlasRoutes(zapi, ctx);
      await worldRequestsRoutes(zapi, ctx);
      await membersRoutes(zapi, ctx);
      await auditLogRoutes(zapi, ctx);
      await discordLoggingRoutes(zapi, ctx);
      await setupDoctorRoutes(zapi, ctx);
      await apiKeysRoutes(zapi, ctx);
      await apiLogRoutes(zapi, ctx);
      await apiV1Routes(zapi, ctx);
      await adminRoutes(zapi, ctx);
      await worldMirrorAdminRoutes(zapi, ctx);
    },
    { prefix: '/api' },
  );
  await worldDataRoutes(app, ctx);
  await atlasDataRoutes(app, ctx);
  await worldMirrorServeRoutes(app, ctx);

  const webDist = opts.webDist === undefined ? defaultWebDist : opts.webDist;
  const serveWeb = Boolean(webDist && existsSync(join(webDist, 'index.html')));
  if (serveWeb && webDist)
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  app.setNotFoundHandler((req, reply) => {
    // Worlds read /data as text: an unknown address there is a short text, never the web app.
    if (req.url === '/data' || req.url.startsWith('/data/'))
      return reply.code(404).type(WORLD_DATA_CONTENT_TYPE).send(DATA_NOT_FOUND);
    if (req.url.startsWith('/api/') || req.url === '/api' || !serveWeb || req.method !== 'GET') {
      return reply.code(404).send({ message: `Route ${req.method} ${req.url.split('?')[0]} not found.` });
    }
    return reply.sendFile('index.html');
  });
  return { app, ctx };
}
