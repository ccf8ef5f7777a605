import type { VrchatAccountPort, VrchatInviteOutcome, VrchatJoinOutcome } from '../ports.js';
import { toAuditEntry, toGroup, toInvite, toJoinRequest, toMember, toRole } from './mappers.js';
import type { VrchatCaller } from './platform.js';

type GroupMethods = Omit<VrchatAccountPort, 'searchUsers' | 'getUser' | 'currentUserId'>;

/** VRChat's page size cap; a shorter page is the last one (there is no total). */
const PAGE = 100;
/** Stops a runaway loop should the API ever ignore `offset` (100k members is far past any group). */
const MAX_PAGES = 1000;

const notAMember = (message: string) => /not a member/i.test(message);

/** Reads every page of a list endpoint. */
async function allPages<T>(fetchPage: (offset: number) => Promise<T[]>): Promise<T[]> {
  const all: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const items = await fetchPage(page * PAGE);
    all.push(...items);
    if (items.length < PAGE) break;
  }
  return all;
}

export function groupMethods(caller: VrchatCaller): GroupMethods {
  return {
    async getGroup(groupId, { includeRoles = false } = {}) {
      const res = await caller.call((c) => c.getGroup({ path: { groupId }, query: { includeRoles } }));
      if (!res.ok && res.status === 404) return null;
      if (!res.ok) caller.fail(res);
      return toGroup(res.data);
    },

    async getGroupMember(groupId, userId) {
      // The SDK's date transformer crashes on the `null` body VRChat may send for a non-member.
      const res = await caller.call((c) =>
        c.getGroupMember({ path: { groupId, userId }, responseTransformer: async (d: unknown) => d }),
      );
      if (!res.ok && (res.status === 403 || res.status === 404) && notAMember(res.message)) return null;
      if (!res.ok) caller.fail(res);
      const m = res.data;
      if (!m?.userId || (m.membershipStatus && m.membershipStatus !== 'member')) return null;
      return toMember(m);
    },

    async listGroupMembers(groupId, { roleId } = {}) {
      const members = await allPages(async (offset) => {
        const res = await caller.call((c) =>
          c.getGroupMembers({
            path: { groupId },
            query: { n: PAGE, offset, sort: 'joinedAt:asc', ...(roleId ? { roleId } : {}) },
          }),
        );
        if (!res.ok) caller.fail(res);
        return (res.data ?? []).map(toMember);
      });
      // Read after the listing: someone joining meanwhile makes it look cut, the safe side.
      const res = await caller.call((c) => c.getGroup({ path: { groupId } }));
      if (!res.ok) caller.fail(res);
      const memberCount = res.data?.memberCount ?? 0;
      if (roleId) {
        // No per-role count: a listing ending on a full page in a larger group may have hit the cap.
        const mayBeCut = members.length > 0 && members.length % PAGE === 0 && memberCount > members.length;
        return { members, complete: !mayBeCut };
      }
      // VRChat documents that the listing leaves out the caller (its own member is in myMember).
      const self = res.data?.myMember?.userId;
      const selfMissing = self !== undefined && !members.some((m) => m.userId === self);
      return { members, complete: members.length + (selfMissing ? 1 : 0) >= memberCount };
    },

    async listGroupInvites(groupId) {
      return allPages(async (offset) => {
        const res = await caller.call((c) =>
          c.getGroupInvites({ path: { groupId }, query: { n: PAGE, offset } }),
        );
        if (!res.ok) caller.fail(res);
        return (res.data ?? []).map(toInvite);
      });
    },

    async getGroupRoles(groupId) {
      const res = await caller.call((c) => c.getGroupRoles({ path: { groupId } }));
      if (!res.ok) caller.fail(res);
      return (res.data ?? []).map(toRole).sort((a, b) => a.order - b.order);
    },

    async addGroupMemberRole(groupId, userId, roleId) {
      const res = await caller.call((c) =>
        c.addGroupMemberRole({ path: { groupId, userId, groupRoleId: roleId } }),
      );
      if (!res.ok) caller.fail(res);
      return [...(res.data ?? [])];
    },

    async removeGroupMemberRole(groupId, userId, roleId) {
      const res = await caller.call((c) =>
        c.removeGroupMemberRole({ path: { groupId, userId, groupRoleId: roleId } }),
      );
      if (!res.ok) caller.fail(res);
      return [...(res.data ?? [])];
    },

    async inviteToGroup(groupId, userId): Promise<VrchatInviteOutcome> {
      // A retried POST after a lost answer lands on "already invited", which is the right outcome anyway.
      const res = await caller.call((c) => c.createGroupInvite({ path: { groupId }, body: { userId } }));
      if (res.ok) return 'invited';
      if (res.status === 400 && /already a member/i.test(res.message)) return 'already_member';
      if (res.status === 400 && /already invited/i.test(res.message)) return 'already_invited';
      if (res.status === 403 && /can.?t invite/i.test(res.message)) return 'blocked';
      caller.fail(res);
    },

    async cancelGroupInvite(groupId, userId): Promise<boolean> {
      const res = await caller.call((c) => c.deleteGroupInvite({ path: { groupId, userId } }));
      if (res.ok) return true;
      // Answered, taken back, or never invited: nothing pending to withdraw.
      if (res.status === 400 && /wasn.?t invited|not invited/i.test(res.message)) return false;
      caller.fail(res);
    },

    async joinGroup(groupId): Promise<VrchatJoinOutcome> {
      const res = await caller.call((c) => c.joinGroup({ path: { groupId } }));
      if (res.ok) return res.data?.membershipStatus === 'member' ? 'member' : 'requested';
      if (res.status === 400 && /already a member/i.test(res.message)) return 'member';
      if (res.status === 400 && /pending request/i.test(res.message)) return 'requested';
      if (res.status === 403 && /invite only/i.test(res.message)) return 'invite_only';
      if (res.status === 403 || res.status === 400) return 'refused';
      caller.fail(res);
    },

    async listJoinRequests(groupId) {
      return allPages(async (offset) => {
        const res = await caller.call((c) =>
          c.getGroupRequests({ path: { groupId }, query: { n: PAGE, offset } }),
        );
        if (!res.ok) caller.fail(res);
        return (res.data ?? []).map(toJoinRequest);
      });
    },

    async respondJoinRequest(groupId, userId, action, { block } = {}) {
      const res = await caller.call((c) =>
        c.respondGroupJoinRequest({
          path: { groupId, userId },
          body: { action, ...(block !== undefined ? { block } : {}) },
        }),
      );
      if (res.ok) return 'done';
      // "<name> can't join right now because they're in too many groups․" (vrchatapi/specification#541).
      if (res.status === 403 && /too many groups/i.test(res.message)) return 'too_many_groups';
      caller.fail(res);
    },

    async kickGroupMember(groupId, userId) {
      const res = await caller.call((c) => c.kickGroupMember({ path: { groupId, userId } }));
      if (res.ok) return true;
      if ((res.status === 403 || res.status === 404) && notAMember(res.message)) return false;
      caller.fail(res);
    },

    async getGroupAuditLogs(groupId, q = {}) {
      const csv = (ids?: string[]) => (ids?.length ? ids.join(',') : undefined);
      const res = await caller.call((c) =>
        c.getGroupAuditLogs({
          path: { groupId },
          query: {
            n: q.n ?? PAGE,
            offset: q.offset ?? 0,
            startDate: q.startDate,
            endDate: q.endDate,
            actorIds: csv(q.actorIds),
            eventTypes: csv(q.eventTypes),
            targetIds: csv(q.targetIds),
          },
        }),
      );
      if (!res.ok) caller.fail(res);
      return {
        entries: (res.data?.results ?? []).map(toAuditEntry),
        totalCount: res.data?.totalCount ?? 0,
        hasNext: res.data?.hasNext === true,
      };
    },
  };
}
