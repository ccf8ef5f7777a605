import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireCaller } from './auth.js';
import { purchasedRole, vrcError } from './errors.js';
import {
  hasPermission,
  loadGroup,
  requireMember,
  requirePermission,
  requireRoleBelowCaller,
  requireTargetBelowCaller,
} from './group-access.js';
import { page, paging, str } from './query.js';
import { toGroupMember } from './serialize-groups.js';
import type { Visibility, VrchatState, VrcMembership } from './state.js';

type MemberParams = { Params: { groupId: string; userId: string } };
type RoleParams = { Params: { groupId: string; userId: string; groupRoleId: string } };

/** Plain string comparison (ISO timestamps and ids): localeCompare is far too slow for 50k members. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const byJoinedAt = (desc: boolean) => (a: VrcMembership, b: VrcMembership) =>
  (desc ? -1 : 1) * (cmp(a.joinedAt ?? a.createdAt, b.joinedAt ?? b.createdAt) || cmp(a.id, b.id));

export function registerGroupMemberRoutes(
  api: FastifyInstance,
  state: VrchatState,
  baseUrl: () => string,
): void {
  api.get<{ Params: { groupId: string } }>('/groups/:groupId/members', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    const paged = paging(req.query);
    const sort = str(req.query, 'sort') ?? 'joinedAt:asc';
    if (sort !== 'joinedAt:asc' && sort !== 'joinedAt:desc')
      throw vrcError(400, `sort must be one of joinedAt:asc, joinedAt:desc: '${sort}'`);
    const roleId = str(req.query, 'roleId');
    // Only members may list a group's members (vrchatapi/specification#350, #489).
    requireMember(state, group.id, user.id);
    const notes = hasPermission(state, group, user.id, 'group-members-manage');
    // Real VRChat lists all *other* members: never the caller (its own membership is the group's myMember).
    const members = state
      .groupMemberships(group.id, 'member')
      .filter((m) => m.userId !== user.id && (!roleId || m.roleIds.includes(roleId)))
      .sort(byJoinedAt(sort === 'joinedAt:desc'));
    // Real VRChat stops listing large groups: nothing at or past the cap is ever returned.
    const cap = state.config.groupMemberListCap;
    const n = Math.max(0, Math.min(paged.n, cap - paged.offset));
    return page(members, { n, offset: paged.offset }).map((m) => toGroupMember(baseUrl(), state, m, notes));
  });

  api.get<{ Params: { groupId: string } }>('/groups/:groupId/members/search', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    const paged = paging(req.query);
    const query = (str(req.query, 'query') ?? '').trim().toLowerCase();
    if ([...query].length < 3) throw vrcError(400, '"query" must be at least 3 characters long');
    requireMember(state, group.id, user.id);
    const notes = hasPermission(state, group, user.id, 'group-members-manage');
    const hits = state
      .groupMemberships(group.id, 'member')
      .filter((m) => state.displayName(m.userId).toLowerCase().includes(query))
      .sort(byJoinedAt(false));
    const results = page(hits, paged).map((m) => toGroupMember(baseUrl(), state, m, notes));
    // The spec describes `total` as the number of members returned, not the number of matches.
    return { results, total: results.length };
  });

  api.get<MemberParams>('/groups/:groupId/members/:userId', async (req, reply) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requireMember(state, group.id, user.id);
    const m = state.membership(group.id, req.params.userId);
    // VRChat answers 200 with a null body for someone who is not a member (vrchatapi/specification#536).
    if (!m) return reply.code(200).type('application/json').send('null');
    const notes = hasPermission(state, group, user.id, 'group-members-manage');
    return toGroupMember(baseUrl(), state, m, notes);
  });

  api.put<MemberParams>('/groups/:groupId/members/:userId', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    const target = requireMember(state, group.id, req.params.userId);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const self = user.id === target.userId;
    const manager = hasPermission(state, group, user.id, 'group-members-manage');
    if (!self && !manager) throw vrcError(403, "You don't have permission to do that.");
    if (body.managerNotes !== undefined && !manager)
      throw vrcError(403, "You don't have permission to do that.");
    if (
      body.visibility !== undefined &&
      !['visible', 'friends', 'hidden'].includes(body.visibility as string)
    )
      throw vrcError(400, 'visibility must be one of visible, friends, hidden');
    for (const key of ['isSubscribedToAnnouncements', 'isSubscribedToEventAnnouncements'])
      if (body[key] !== undefined && typeof body[key] !== 'boolean')
        throw vrcError(400, `${key} must be a boolean`);
    if (body.managerNotes !== undefined && typeof body.managerNotes !== 'string')
      throw vrcError(400, 'managerNotes must be a string');
    if (body.visibility !== undefined) target.visibility = body.visibility as Visibility;
    if (typeof body.isSubscribedToAnnouncements === 'boolean')
      target.isSubscribedToAnnouncements = body.isSubscribedToAnnouncements;
    if (typeof body.managerNotes === 'string' && body.managerNotes !== target.managerNotes) {
      const old = target.managerNotes;
      target.managerNotes = body.managerNotes;
      state.addAudit({
        groupId: group.id,
        actorId: user.id,
        targetId: target.userId,
        eventType: 'group.member.user.update',
        description: `${user.displayName} updated the manager notes of ${state.displayName(target.userId)}.`,
        data: { managerNotes: { old, new: target.managerNotes } },
      });
    }
    return toGroupMember(baseUrl(), state, target, manager);
  });

  api.delete<MemberParams>('/groups/:groupId/members/:userId', async (req) => {
    const { user } = requireCaller(state, req);
    const group = loadGroup(state, req.params.groupId);
    requirePermission(state, group, user.id, 'group-members-remove');
    const target = requireMember(state, group.id, req.params.userId);
    if (target.userId === group.ownerId) throw vrcError(403, "You can't kick the owner of the group.");
    if (target.userId === user.id) throw vrcError(400, "You can't kick yourself. Leave the group instead.");
    requireTargetBelowCaller(state, group, user.id, target.userId);
    state.deleteMembership(group.id, target.userId);
    state.addAudit({
      groupId: group.id,
      actorId: user.id,
      targetId: target.userId,
      eventType: 'group.member.remove',
      description: `${user.displayName} removed ${state.displayName(target.userId)} from the group.`,
      data: {},
    });
    return { success: { message: 'Group member deleted!', status_code: 200 } };
  });

  // PUT adds, DELETE removes; both answer the member's role ids after the change.
  for (const add of [true, false]) {
    const handler = async (req: FastifyRequest<RoleParams>) => {
      const { user } = requireCaller(state, req);
      const group = loadGroup(state, req.params.groupId);
      requirePermission(state, group, user.id, 'group-roles-assign');
      const role = state.roles.get(req.params.groupRoleId);
      if (!role || role.groupId !== group.id) throw vrcError(404, "Can't find role!");
      const target = state.member(group.id, req.params.userId);
      if (!target) throw vrcError(404, 'User is not a member of this group.');
      if (role.requiresPurchase) throw purchasedRole(role.name);
      requireRoleBelowCaller(state, group, user.id, role);
      requireTargetBelowCaller(state, group, user.id, target.userId);
      const has = target.roleIds.includes(role.id);
      if (add !== has) {
        const old = [...target.roleIds];
        target.roleIds = add ? [...target.roleIds, role.id] : target.roleIds.filter((id) => id !== role.id);
        const targetName = state.displayName(target.userId);
        state.addAudit({
          groupId: group.id,
          actorId: user.id,
          targetId: target.userId,
          eventType: add ? 'group.member.role.assign' : 'group.member.role.unassign',
          description: add
            ? `${user.displayName} assigned the role "${role.name}" to ${targetName}.`
            : `${user.displayName} removed the role "${role.name}" from ${targetName}.`,
          data: { roleId: role.id, roleName: role.name, roleIds: { old, new: [...target.roleIds] } },
        });
      }
      return [...target.roleIds];
    };
    const path = '/groups/:groupId/members/:userId/roles/:groupRoleId';
    if (add) api.put<RoleParams>(path, handler);
    else api.delete<RoleParams>(path, handler);
  }
}
