import type { FastifyInstance } from 'fastify';
import { requireCaller } from './auth.js';
import { requireRoomForAnotherGroup, userNotFound, vrcError } from './errors.js';
import { loadGroup, requireMember, requirePermission, requireTargetBelowCaller } from './group-access.js';
import { memberLeaves } from './mutations.js';
import { bool, csv, page, paging, str } from './query.js';
import { toAuditEntry, toGroup, toGroupMember, toRole } from './serialize-groups.js';
import type { VrchatState } from './state.js';

type GroupParams = { Params: { groupId: string } };

export function registerGroupRoutes(api: FastifyInstance, state: VrchatState, baseUrl: () => string): void {
  api.get<GroupParams>('/groups/:groupId', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    return toGroup(baseUrl(), state, group, user.id, bool(req.query, 'includeRoles'));
  });

  api.get<GroupParams>('/groups/:groupId/roles', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    // Only members see a group's roles (vrchatapi/specification#350, #489).
    requireMember(state, group.id, user.id);
    return state.groupRoles(group.id).map(toRole);
  });

  api.post<GroupParams>('/groups/:groupId/join', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    const existing = state.membership(group.id, user.id);
    /** The group's audit entry for the caller's own step, e.g. "<name> joined the group." */
    const auditOwnStep = (eventType: string, didWhat: string, data: Record<string, unknown> = {}) =>
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: user.id,
        eventType,
        description: `${user.displayName} ${didWhat}`,
        data,
      });
    switch (existing?.status) {
      case 'member':
        throw vrcError(400, "You're already a member!");
      case 'banned':
        throw vrcError(403, 'You are banned from this group.');
      case 'requested':
        if (existing.requestBlocked) throw vrcError(403, "You can't request to join this group.");
        throw vrcError(400, 'You already have a pending request to join this group.');
      case 'userblocked':
        // Joining a group you blocked needs an explicit override (the SDK's confirmOverrideBlock).
        if (!bool(req.query, 'confirmOverrideBlock'))
          throw vrcError(400, 'You have blocked this group. Confirm to override the block.');
        state.deleteMembership(group.id, user.id);
        break;
      case 'invited': {
        // Accepting an invite works whatever the join state, but not past the group limit.
        requireRoomForAnotherGroup(state, user.id);
        const inviter = existing.acceptedById;
        const m = state.putMembership(group.id, user.id, 'member');
        m.acceptedById = inviter ?? group.ownerId;
        auditOwnStep('group.member.join', 'accepted an invite and joined the group.', {
          inviteAccepted: true,
        });
        return toGroupMember(baseUrl(), state, m);
      }
    }
    if (group.joinState === 'open') {
      requireRoomForAnotherGroup(state, user.id);
      const m = state.putMembership(group.id, user.id, 'member');
      auditOwnStep('group.member.join', 'joined the group.');
      return toGroupMember(baseUrl(), state, m);
    }
    if (group.joinState === 'request') {
      const m = state.putMembership(group.id, user.id, 'requested');
      auditOwnStep('group.request.create', 'requested to join the group.');
      return toGroupMember(baseUrl(), state, m);
    }
    if (group.joinState === 'invite') throw vrcError(403, 'This group is invite only.');
    throw vrcError(403, 'This group is not accepting new members.');
  });

  api.post<GroupParams>('/groups/:groupId/leave', async (req, reply) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    memberLeaves(state, group.id, user.id);
    // The real endpoint answers 200 with an empty body.
    return reply.code(200).send();
  });

  api.get<GroupParams>('/groups/:groupId/bans', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-bans-manage');
    const banned = state
      .groupMemberships(group.id, 'banned')
      .sort((a, b) => (a.bannedAt ?? '').localeCompare(b.bannedAt ?? ''));
    return page(banned, paging(req.query)).map((m) => toGroupMember(baseUrl(), state, m, true));
  });

  api.post<GroupParams>('/groups/:groupId/bans', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-bans-manage');
    const userId = (req.body as { userId?: unknown } | undefined)?.userId;
    if (typeof userId !== 'string' || !userId) throw vrcError(400, '"userId" is required');
    if (!state.users.has(userId)) throw userNotFound();
    if (userId === group.ownerId) throw vrcError(403, "You can't ban the owner of the group.");
    if (userId === user.id) throw vrcError(400, "You can't ban yourself.");
    if (state.membership(group.id, userId)?.status === 'banned')
      throw vrcError(400, 'That user is already banned.');
    if (state.member(group.id, userId)) requireTargetBelowCaller(state, group, user.id, userId);
    const m = state.putMembership(group.id, userId, 'banned');
    state.addAudit({
      groupId: group.id,
      actorId: user.id,
      targetId: userId,
      eventType: 'group.user.ban',
      description: `${user.displayName} banned ${state.displayName(userId)} from the group.`,
      data: {},
    });
    return toGroupMember(baseUrl(), state, m, true);
  });

  api.delete<{ Params: { groupId: string; userId: string } }>(
    '/groups/:groupId/bans/:userId',
    async (req) => {
      const { user } = requireCaller(state, req);
      const group = loadGroup(state, req.params.groupId);
      requirePermission(state, group, user.id, 'group-bans-manage');
      const m = state.membership(group.id, req.params.userId);
      if (m?.status !== 'banned') throw vrcError(404, 'That user is not banned.');
      const answer = toGroupMember(baseUrl(), state, m, true);
      state.deleteMembership(group.id, m.userId);
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: m.userId,
        eventType: 'group.user.unban',
        description: `${user.displayName} unbanned ${state.displayName(m.userId)}.`,
        data: {},
      });
      return { ...answer, membershipStatus: 'inactive', bannedAt: null };
    },
  );

  api.get<GroupParams>('/groups/:groupId/auditLogs', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-audit-view');
    const paged = paging(req.query);
    const start = dateParam(req.query, 'startDate');
    const end = dateParam(req.query, 'endDate');
    const actors = csv(req.query, 'actorIds');
    const types = csv(req.query, 'eventTypes');
    const targets = csv(req.query, 'targetIds');
    const matches = [...(state.audit.get(group.id) ?? [])]
      .reverse()
      .filter(
        (e) =>
          (start === undefined || Date.parse(e.created_at) >= start) &&
          (end === undefined || Date.parse(e.created_at) <= end) &&
          (!actors || actors.includes(e.actorId)) &&
          (!types || types.includes(e.eventType)) &&
          (!targets || targets.includes(e.targetId)),
      );
    return {
      results: page(matches, paged).map(toAuditEntry),
      totalCount: matches.length,
      hasNext: paged.offset + paged.n < matches.length,
    };
  });
}

function dateParam(query: unknown, name: string): number | undefined {
  const raw = str(query, name);
  if (!raw) return undefined;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw vrcError(400, `${name} must be a valid date-time: '${raw}'`);
  return t;
}
