import type { FastifyInstance } from 'fastify';
import { requireCaller } from './auth.js';
import { requireRoomForAnotherGroup, userNotFound, vrcError } from './errors.js';
import { loadGroup, requirePermission } from './group-access.js';
import { bool, page, paging } from './query.js';
import { toGroupMember } from './serialize-groups.js';
import type { VrchatState } from './state.js';

type GroupParams = { Params: { groupId: string } };
type MemberParams = { Params: { groupId: string; userId: string } };

const byCreated = (a: { createdAt: string }, b: { createdAt: string }) =>
  a.createdAt.localeCompare(b.createdAt);

export function registerGroupInviteRoutes(
  api: FastifyInstance,
  state: VrchatState,
  baseUrl: () => string,
): void {
  api.post<GroupParams>('/groups/:groupId/invites', async (req, reply) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-invites-manage');
    const userId = (req.body as { userId?: unknown } | undefined)?.userId;
    if (typeof userId !== 'string' || !userId) throw vrcError(400, '"userId" is required');
    const target = state.users.get(userId);
    if (!target) throw userNotFound();
    const existing = state.membership(group.id, userId);
    if (existing?.status === 'member')
      throw vrcError(400, `User ${target.displayName} is already a member of this group.`);
    if (existing?.status === 'invited') throw vrcError(400, `User ${target.displayName} is already invited.`);
    if (existing?.status === 'userblocked' || existing?.status === 'banned')
      throw vrcError(403, "You can't invite that user․");
    requireRoomForAnotherGroup(state, userId);
    const m = state.putMembership(group.id, userId, 'invited');
    // Remembered so the membership created on acceptance names who let them in.
    m.acceptedById = user.id;
    state.addAudit({
      groupId: group.id,
      actorId: user.id,
      targetId: userId,
      eventType: 'group.invite.create',
      description: `${user.displayName} invited ${target.displayName} to the group.`,
      data: {},
    });
    // The real endpoint answers 200 with an empty body.
    return reply.code(200).send();
  });

  api.get<GroupParams>('/groups/:groupId/invites', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-invites-manage');
    const invited = state.groupMemberships(group.id, 'invited').sort(byCreated);
    return page(invited, paging(req.query)).map((m) => toGroupMember(baseUrl(), state, m, true));
  });

  api.delete<MemberParams>('/groups/:groupId/invites/:userId', async (req, reply) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-invites-manage');
    const m = state.membership(group.id, req.params.userId);
    if (m?.status !== 'invited') throw vrcError(400, "You can't uninvite a user who wasn't invited.");
    state.deleteMembership(group.id, m.userId);
    state.addAudit({
      groupId: group.id,
      actorId: user.id,
      targetId: m.userId,
      eventType: 'group.invite.cancel',
      description: `${user.displayName} cancelled the invite of ${state.displayName(m.userId)}.`,
      data: {},
    });
    return reply.code(200).send();
  });

  api.get<GroupParams>('/groups/:groupId/requests', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-invites-manage');
    const blocked = bool(req.query, 'blocked');
    const requests = state
      .groupMemberships(group.id, 'requested')
      .filter((m) => Boolean(m.requestBlocked) === blocked)
      .sort(byCreated);
    return page(requests, paging(req.query)).map((m) => toGroupMember(baseUrl(), state, m, true));
  });

  api.put<MemberParams>('/groups/:groupId/requests/:userId', async (req, reply) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-invites-manage');
    const body = (req.body ?? {}) as { action?: unknown; block?: unknown };
    if (body.action !== 'accept' && body.action !== 'reject')
      throw vrcError(400, 'action must be one of accept, reject');
    const m = state.membership(group.id, req.params.userId);
    if (m?.status !== 'requested' || m.requestBlocked)
      throw vrcError(400, "You can't accept a join request for a user who hasn't requested to join․");
    const name = state.displayName(m.userId);
    if (body.action === 'accept') {
      requireRoomForAnotherGroup(state, m.userId);
      const member = state.putMembership(group.id, m.userId, 'member');
      member.acceptedById = user.id;
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: m.userId,
        eventType: 'group.request.accept',
        description: `${user.displayName} accepted the join request of ${name}.`,
        data: {},
      });
    } else {
      if (body.block === true) m.requestBlocked = true;
      else state.deleteMembership(group.id, m.userId);
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: m.userId,
        eventType: body.block === true ? 'group.request.block' : 'group.request.reject',
        description: `${user.displayName} rejected the join request of ${name}.`,
        data: { block: body.block === true },
      });
    }
    return reply.code(200).send();
  });
}
