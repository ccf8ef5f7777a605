import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ApiCounters } from '../api-counters.js';
import { BOT_ACCOUNTS_MAX, BULK_GROUPS_MAX, bulkCreateGroups, createBotAccounts } from './bulk-groups.js';
import { VrcApiError } from './errors.js';
import {
  BIO_MAX,
  bulkAddMembers,
  createUser,
  memberLeaves,
  ownerAddsMember,
  ownerCreatesRole,
  ownerRemovesMember,
  ownerSetsMemberRoles,
  ownerUpdatesRolePermissions,
  patchGroup,
  patchUser,
  userBlocksGroup,
  userRequestsToJoin,
} from './mutations.js';
import type { VrchatState } from './state.js';

/**
 * Test and demo control of the VRChat side, under /control/vrchat (documented in CONTROL.md). Plain
 * JSON, no auth: it plays the parts of VRChat users, group owners and VRChat's own session store.
 */

const userPatch = z
  .object({
    displayName: z.string().min(1).max(64),
    bio: z.string().max(BIO_MAX),
    bioLinks: z.array(z.string()).max(3),
    pronouns: z.string().max(32),
    ageVerificationStatus: z.enum(['18+', 'hidden', 'verified']),
    ageVerified: z.boolean(),
    status: z.enum(['active', 'join me', 'ask me', 'busy', 'offline']),
    state: z.enum(['online', 'active', 'offline']),
    statusDescription: z.string().max(32),
  })
  .partial()
  .strict();

const newUser = userPatch.extend({
  displayName: z.string().min(1).max(64),
  username: z.string().min(1).optional(),
  password: z.string().min(1).optional(),
  totpSecret: z
    .string()
    .regex(/^[A-Z2-7]+=*$/, 'base32')
    .optional(),
});

const groupPatch = z
  .object({
    name: z.string().min(1).max(64),
    description: z.string().max(250),
    joinState: z.enum(['open', 'request', 'invite', 'closed']),
  })
  .partial()
  .strict();

const configPatch = z
  .object({
    rate: z
      .object({
        capacity: z.number().int().positive(),
        perSecond: z.number().positive(),
        blockSeconds: z.number().positive(),
        maxBlockSeconds: z.number().positive(),
        retryAfter: z.enum(['always', 'never', 'alternate']),
      })
      .partial()
      .strict(),
    sessionLimit: z.object({ max: z.number().int().positive(), windowSeconds: z.number().int().positive() }),
    groupMemberListCap: z.number().int().positive(),
    sessionAddressBinding: z.union([z.literal('off'), z.literal(401), z.literal(403)]),
    maxGroupsPerUser: z.number().int().positive(),
  })
  .partial()
  .strict();

const userIdBody = z.object({ userId: z.string().min(1) });

const newRole = z
  .object({
    name: z.string().min(1).max(64),
    description: z.string().max(250).optional(),
    order: z.number().int().min(1).optional(),
    permissions: z.array(z.string()).optional(),
    isManagementRole: z.boolean().optional(),
    requiresPurchase: z.boolean().optional(),
  })
  .strict();

const roleIdsBody = z.object({ roleIds: z.array(z.string()) }).strict();

/** 50,000 in well under a second; more is refused so a typo cannot eat the machine's memory. */
const BULK_MAX = 200_000;
const bulkBody = z
  .object({ count: z.number().int().positive().max(BULK_MAX), roleIds: z.array(z.string()).optional() })
  .strict();

const bulkGroupsBody = z
  .object({
    count: z.number().int().positive().max(BULK_GROUPS_MAX),
    joinState: z.enum(['open', 'request', 'invite', 'closed']).optional(),
    botUserIds: z.array(z.string().min(1)).optional(),
    membersPerGroup: z.number().int().min(0).max(BULK_MAX).optional(),
  })
  .strict();

const botAccountsBody = z.object({ count: z.number().int().positive().max(BOT_ACCOUNTS_MAX) }).strict();

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new VrcApiError(400, z.prettifyError(parsed.error));
  return parsed.data;
}

export interface ControlHooks {
  /** Clears everything and seeds the world again. */
  reset(): void;
  /** Empties the rate-limit buckets and ends every block (done with the session counters). */
  resetRate(): void;
  counters: ApiCounters;
}

export function registerVrchatControl(
  control: FastifyInstance,
  state: VrchatState,
  hooks: ControlHooks,
): void {
  control.setErrorHandler((err: FastifyError | VrcApiError, _req, reply: FastifyReply) => {
    if (err instanceof VrcApiError) return reply.code(err.status).send({ message: err.message });
    return reply.code(err.statusCode ?? 500).send({ message: err.message });
  });

  control.get('/state', async () => ({
    config: state.config,
    users: [...state.users.values()].map((u) => ({
      id: u.id,
      displayName: u.displayName,
      ageVerificationStatus: u.ageVerificationStatus,
      ageVerified: u.ageVerified,
      bio: u.bio,
      login: state.accounts.get(u.id)?.username ?? null,
    })),
    groups: [...state.groups.values()].map((g) => ({
      ...g,
      roles: state.groupRoles(g.id),
      memberships: state.groupMemberships(g.id),
      auditLogCount: state.audit.get(g.id)?.length ?? 0,
    })),
  }));

  control.get<{ Params: { userId: string } }>('/users/:userId', async (req, reply) => {
    const user = state.users.get(req.params.userId);
    if (!user) return reply.code(404).send({ message: 'User not found' });
    return { ...user, memberships: state.userMemberships(user.id) };
  });

  control.patch<{ Params: { userId: string } }>('/users/:userId', async (req) =>
    patchUser(state, req.params.userId, parse(userPatch, req.body)),
  );

  control.post('/users', async (req, reply) => {
    const input = parse(newUser, req.body);
    if ((input.username === undefined) !== (input.password === undefined))
      throw new VrcApiError(400, 'username and password go together');
    if (input.username && state.accountByLogin(input.username))
      throw new VrcApiError(409, `username ${input.username} is taken`);
    return reply.code(201).send(createUser(state, input));
  });

  control.get<{ Params: { groupId: string } }>('/groups/:groupId', async (req, reply) => {
    const group = state.groups.get(req.params.groupId);
    if (!group) return reply.code(404).send({ message: "Can't find group!" });
    return {
      ...group,
      roles: state.groupRoles(group.id),
      memberships: state.groupMemberships(group.id),
      auditLog: state.audit.get(group.id) ?? [],
    };
  });

  control.patch<{ Params: { groupId: string } }>('/groups/:groupId', async (req) =>
    patchGroup(state, req.params.groupId, parse(groupPatch, req.body)),
  );

  control.post<{ Params: { groupId: string; userId: string } }>(
    '/groups/:groupId/members/:userId',
    async (req, reply) => {
      const { roleIds } = parse(z.object({ roleIds: z.array(z.string()).optional() }).strict(), req.body);
      return reply.code(201).send(ownerAddsMember(state, req.params.groupId, req.params.userId, roleIds));
    },
  );

  control.delete<{ Params: { groupId: string; userId: string } }>(
    '/groups/:groupId/members/:userId',
    async (req, reply) => {
      ownerRemovesMember(state, req.params.groupId, req.params.userId);
      return reply.code(204).send();
    },
  );

  control.post<{ Params: { groupId: string; userId: string } }>(
    '/groups/:groupId/members/:userId/leave',
    async (req, reply) => {
      memberLeaves(state, req.params.groupId, req.params.userId);
      return reply.code(204).send();
    },
  );

  control.put<{ Params: { groupId: string; userId: string } }>(
    '/groups/:groupId/members/:userId/roles',
    async (req) => {
      const { roleIds } = parse(roleIdsBody, req.body);
      return ownerSetsMemberRoles(state, req.params.groupId, req.params.userId, roleIds);
    },
  );

  control.post<{ Params: { groupId: string } }>('/groups/:groupId/roles', async (req, reply) => {
    const input = parse(newRole, req.body);
    return reply.code(201).send(ownerCreatesRole(state, req.params.groupId, input));
  });

  control.patch<{ Params: { groupId: string; roleId: string } }>(
    '/groups/:groupId/roles/:roleId',
    async (req) => {
      const { permissions } = parse(z.object({ permissions: z.array(z.string()) }).strict(), req.body);
      return ownerUpdatesRolePermissions(state, req.params.groupId, req.params.roleId, permissions);
    },
  );

  control.post<{ Params: { groupId: string } }>('/groups/:groupId/bulk-members', async (req, reply) => {
    const { count, roleIds } = parse(bulkBody, req.body);
    return reply.code(201).send(bulkAddMembers(state, req.params.groupId, count, roleIds));
  });

  control.post('/bulk-groups', async (req, reply) =>
    reply.code(201).send(bulkCreateGroups(state, parse(bulkGroupsBody, req.body))),
  );

  control.post('/bot-accounts', async (req, reply) => {
    const { count } = parse(botAccountsBody, req.body);
    return reply.code(201).send({ accounts: createBotAccounts(state, count) });
  });

  control.post<{ Params: { groupId: string } }>('/groups/:groupId/requests', async (req, reply) => {
    const { userId } = parse(userIdBody, req.body);
    return reply.code(201).send(userRequestsToJoin(state, req.params.groupId, userId));
  });

  control.post<{ Params: { groupId: string } }>('/groups/:groupId/blocks', async (req, reply) => {
    const { userId } = parse(userIdBody, req.body);
    return reply.code(201).send(userBlocksGroup(state, req.params.groupId, userId));
  });

  control.get('/sessions', async () => {
    const now = Date.now();
    const windowStart = now - (state.config.sessionLimit.windowSeconds * 1000) / state.timeScale;
    return {
      sessionLimit: state.config.sessionLimit,
      accounts: [...state.accounts.values()].map((a) => {
        const sessions = [...state.sessions.values()].filter(
          (s) => s.userId === a.userId && s.expiresAt > now,
        );
        return {
          userId: a.userId,
          username: a.username,
          loginsInWindow: (state.logins.get(a.userId) ?? []).filter((t) => t > windowStart).length,
          activeSessions: sessions.length,
          pendingTwoFactor: sessions.filter((s) => !s.twoFactorDone).length,
        };
      }),
    };
  });

  control.post('/reset-sessions', async (_req, reply) => {
    state.logins.clear();
    hooks.resetRate();
    return reply.code(204).send();
  });

  control.post('/invalidate-sessions', async (req) => {
    const { userId } = parse(z.object({ userId: z.string().optional() }).strict(), req.body);
    let invalidated = 0;
    for (const [token, s] of state.sessions)
      if (!userId || s.userId === userId) {
        state.sessions.delete(token);
        invalidated += 1;
      }
    return { invalidated };
  });

  // timeScale is the simulator's start-up option (SimulatorOptions.timeScale), read-only here.
  control.get('/config', async () => ({ ...state.config, timeScale: state.timeScale }));

  control.patch('/config', async (req) => {
    const { rate, ...patch } = parse(configPatch, req.body);
    state.config = { ...state.config, ...patch, rate: { ...state.config.rate, ...rate } };
    hooks.resetRate();
    return { ...state.config, timeScale: state.timeScale };
  });

  control.get('/counters', async () => hooks.counters.snapshot());

  control.delete('/counters', async (_req, reply) => {
    hooks.counters.reset();
    return reply.code(204).send();
  });

  control.post('/reset', async (_req, reply) => {
    hooks.reset();
    return reply.code(204).send();
  });
}
