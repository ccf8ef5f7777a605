import { describe, expect, it } from 'vitest';
import { breakerHolds, planWithBreaker } from './sync-breaker.js';
import type { PlanGroup, SyncPlanInput } from './sync-plan.js';

describe('the removal circuit breaker', () => {
  it('holds only removals above both a count and a share, so a small group is never held for one departure', () => {
    expect(breakerHolds(1, 5)).toBe(false);
    expect(breakerHolds(5, 10)).toBe(false);
    expect(breakerHolds(6, 10)).toBe(true);
    expect(breakerHolds(6, 60)).toBe(false);
    expect(breakerHolds(30, 1000)).toBe(false);
    expect(breakerHolds(101, 1000)).toBe(true);
  });

  it('holds group removals and the Discord roles per role, with what follows from them, and lets approved ones through', () => {
    const vrcIds = Array.from({ length: 8 }, (_, i) => `v${i}`);
    const group: PlanGroup = {
      enabled: true,
      autoRemove: true,
      members: new Map(vrcIds.map((id) => [id, id === 'v0' ? ['r1'] : []])),
      names: new Map(),
      pendingInvites: new Set(),
      joinRequests: new Set(),
      alreadyInvited: new Set(),
      protectedUserIds: new Set(),
      manageableRoleIds: new Set(['r1']),
      can: { invite: true, remove: true, assignRoles: true },
      discordToGroup: [],
      groupToDiscord: [{ groupRoleId: 'r1', discordRoleId: 'host', action: 'GrantRoleTemporary' }],
    };
    const input: SyncPlanInput = {
      guildId: 'g',
      autoRoles: { linkedRoleId: null, plus18RoleId: null, ageVerifiedRoleId: null },
      manageableDiscordRoleIds: new Set(['host']),
      members: [
        {
          discordUserId: 'm0',
          name: 'm0',
          roleIds: ['host'],
          link: { vrcUserId: 'v0', vrchatName: 'v0', verified: true, age: 'Plus18' },
        },
      ],
      group,
    };
    const held = planWithBreaker(input, 8, new Set());
    expect(held.held.map((a) => a.kind)).toEqual(Array(8).fill('remove'));
    expect(held.derived).toEqual([
      { kind: 'removeDiscordRole', discordUserId: 'm0', roleId: 'host', reason: 'GrantRoleTemporary' },
    ]);
    expect(held.plan.actions).toEqual([]);
    // Approved: everything goes through, the role that followed from the removal included.
    const approved = planWithBreaker(input, 8, new Set(vrcIds));
    expect(approved.held).toEqual([]);
    expect(approved.plan.actions).toHaveLength(9);
  });
});
