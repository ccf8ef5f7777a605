import type { FastifyInstance } from 'fastify';
import { requireCaller } from './auth.js';
import { vrcError } from './errors.js';
import { loadGroup, requirePermission } from './group-access.js';
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
    requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    return state.groupRoles(group.id).map(toRole);
  });

  api.post<GroupParams>('/groups/:groupId/join', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    const existing = state.membership(group.id, user.id);
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
        // Accepting an invite works whatever the join state.
        const inviter = existing.acceptedById;
        const m = state.putMembership(group.id, user.id, 'member');
        m.acceptedById = inviter ?? group.ownerId;
        state.addAudit({
          groupId: group.id,
          actorId: user.id,
          targetId: user.id,
          eventType: 'group.member.join',
          description: `${user.displayName} accepted an invite and joined the group.`,
          data: { inviteAccepted: true },
        });
        return toGroupMember(baseUrl(), state, m);
      }
    }
    if (group.joinState === 'open') {
      const m = state.putMembership(group.id, user.id, 'member');
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: user.id,
        eventType: 'group.member.join',
        description: `${user.displayName} joined the group.`,
        data: {},
      });
      return toGroupMember(baseUrl(), state, m);
    }
    if (group.joinState === 'request') {
      const m = state.putMembership(group.id, user.id, 'requested');
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: user.id,
        eventType: 'group.request.create',
        description: `${user.displayName} requested to join the group.`,
        data: {},
      });
      return toGroupMember(baseUrl(), state, m);
    }
    if (group.joinState === 'invite') throw vrcError(403, 'This group is invite only.');
    throw vrcError(403, 'This group is not accepting new members.');
  });

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
