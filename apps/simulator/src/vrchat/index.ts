import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebSocketServer } from 'ws';
import { ApiCounters } from '../api-counters.js';
import type { SimContext } from '../context.js';
import { applyFault } from '../faults.js';
import { registerAuthRoutes, sessionOf } from './auth.js';
import { useVrchatBodyParsers } from './body-parsers.js';
import { registerVrchatControl } from './control.js';
import { errorBody, vrchatErrorHandler, writeVrchat429 } from './errors.js';
import { registerGroupInviteRoutes } from './group-invites.js';
import { registerGroupMemberRoutes } from './group-members.js';
import { registerGroupRoutes } from './groups.js';
import { registerImageRoutes } from './images.js';
import { registerPages } from './pages.js';
import { registerPipeline } from './pipeline.js';
import { DEFAULT_SESSION_LIMIT, DEFAULT_VRCHAT_RATE, VrchatRateLimiter } from './ratelimit.js';
import { seedVrchat } from './seed.js';
import { DEFAULT_GROUP_MEMBER_LIST_CAP, DEFAULT_MAX_GROUPS_PER_USER, VrchatState } from './state.js';
import { registerUserRoutes } from './users.js';

export { vrchatAccounts, vrchatGroupIds, vrchatRoleIds, vrchatSeed, vrchatUserIds } from './seed.js';

const apiRoutes = new Set<string>();

/** `METHOD /path/{param}` of every route served under /api/1 (the contract tests check each is in the spec). */
export function servedVrchatRoutes(): string[] {
  return [...apiRoutes].sort();
}

/**
 * HTTP clients' own default User-Agents count as none: real VRChat wants
 * "AppName/Version contact" and answered 403 to clients that did not set one.
 */
const genericAgent = /^(node|undici|node-fetch(\/\S*)?|axios\/\S+|got(\/\S*)?)$/i;

/**
 * The VRChat half of the simulator: API under /api/1, the pipeline WebSocket at /vrchat/pipeline,
 * vrchat.com-like pages under /home, images under /img/vrchat and the control API under
 * /control/vrchat.
 */
export async function registerVrchat(
  app: FastifyInstance,
  ctx: SimContext,
  addSocket: (path: string) => WebSocketServer,
): Promise<void> {
  const state = new VrchatState(
    {
      rate: { ...DEFAULT_VRCHAT_RATE, ...ctx.options.vrchatRate },
      sessionLimit: DEFAULT_SESSION_LIMIT,
      groupMemberListCap: DEFAULT_GROUP_MEMBER_LIST_CAP,
      sessionAddressBinding: 'off',
      maxGroupsPerUser: DEFAULT_MAX_GROUPS_PER_USER,
    },
    ctx.options.timeScale ?? 1,
  );
  seedVrchat(state);
  const limiter = new VrchatRateLimiter(() => state.config.rate, state.timeScale);
  const counters = new ApiCounters(/^\/api\/1/, true);
  registerPipeline(addSocket('/vrchat/pipeline'), state);

  await app.register(
    async (api) => {
      useVrchatBodyParsers(api);
      api.setErrorHandler(vrchatErrorHandler);
      api.setNotFoundHandler((_req, reply) => reply.code(404).send(errorBody(404, '"Not Found"')));
      api.addHook('onRoute', (route) => {
        for (const method of [route.method].flat())
          if (method !== 'HEAD')
            apiRoutes.add(`${method} ${route.url.replace(/^\/api\/1/, '').replace(/:(\w+)/g, '{$1}')}`);
      });
      api.addHook('onRequest', async (req, reply) => {
        reply.header('x-vrc-request-id', randomUUID());
        const agent = req.headers['user-agent']?.trim() ?? '';
        if (!agent || genericAgent.test(agent)) {
          await reply
            .code(403)
            .send(errorBody(403, 'Please identify yourself with a properly formatted User-Agent header'));
          return reply;
        }
        if (await applyFault(ctx.faults, 'vrchat', req, reply, writeVrchat429)) return reply;
        const key = sessionOf(state, req)?.userId ?? `ip:${req.ip}`;
        const decision = limiter.take(key);
        if (!decision.ok) {
          await writeVrchat429(reply, decision.retryAfterSeconds);
          return reply;
        }
      });
      api.addHook('onSend', async (req, _reply, payload) => {
        ctx.faults.carriedOut(req);
        return payload;
      });
      api.addHook('onResponse', async (req, reply) =>
        counters.record(req, reply, sessionOf(state, req)?.userId),
      );
      registerAuthRoutes(api, state, ctx.baseUrl);
      registerUserRoutes(api, state, ctx.baseUrl);
      registerGroupRoutes(api, state, ctx.baseUrl);
      registerGroupMemberRoutes(api, state, ctx.baseUrl);
      registerGroupInviteRoutes(api, state, ctx.baseUrl);
    },
    { prefix: '/api/1' },
  );

  await app.register(async (images) => registerImageRoutes(images));
  await registerPages(app, state);

  await app.register(
    async (control) => {
      useVrchatBodyParsers(control);
      registerVrchatControl(control, state, {
        reset: () => {
          state.reset();
          seedVrchat(state);
          limiter.reset();
          counters.reset();
        },
        resetRate: () => limiter.reset(),
        counters,
      });
    },
    { prefix: '/control/vrchat' },
  );
}
