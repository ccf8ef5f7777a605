import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakerHolds, type HeldDecision, heldKeyOf, isRemoval, planWithBreaker } from './sync-breaker.js';
import type { PlanGroup, SyncPlanInput } from './sync-plan.js';
import { applyActions, discordRoles, inputArb } from './testing-plans.js';

const none = new Map<string, HeldDecision>();

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
    const held = planWithBreaker(input, 8, none);
    expect(held.held.map((a) => a.kind)).toEqual(Array(8).fill('remove'));
    expect(held.derived).toEqual([
      { kind: 'removeDiscordRole', discordUserId: 'm0', roleId: 'host', reason: 'GrantRoleTemporary' },
    ]);
    expect(held.plan.actions).toEqual([]);
    // Approved: everything goes through, the role that followed from the removal included.
    const approved = planWithBreaker(input, 8, new Map(held.held.map((a) => [heldKeyOf(a) ?? '', 'apply'])));
    expect(approved.held).toEqual([]);
    expect(approved.plan.actions).toHaveLength(9);
  });

  it('keeps holding a removal it once held, whatever the count, until a manager applies it or the rules stop asking', () => {
    const vrcIds = Array.from({ length: 8 }, (_, i) => `v${i}`);
    const input = (members: string[]): SyncPlanInput => ({
      guildId: 'g',
      autoRoles: { linkedRoleId: null, plus18RoleId: null, ageVerifiedRoleId: null },
      manageableDiscordRoleIds: new Set(),
      members: [],
      group: {
        enabled: true,
        autoRemove: true,
        members: new Map(members.map((id) => [id, []])),
        names: new Map(),
        pendingInvites: new Set(),
        joinRequests: new Set(),
        alreadyInvited: new Set(),
        protectedUserIds: new Set(),
        manageableRoleIds: new Set(),
        can: { invite: true, remove: true, assignRoles: true },
        discordToGroup: [],
        groupToDiscord: [],
      },
    });
    const first = planWithBreaker(input(vrcIds), 8, none);
    expect(first.fresh).toHaveLength(8);
    // Four of them left: four removals are below the count, but each was held and stays so.
    const remembered = new Map<string, HeldDecision>(vrcIds.map((id) => [id, null]));
    const later = planWithBreaker(input(vrcIds.slice(4)), 4, remembered);
    expect(later.plan.actions).toEqual([]);
    expect(later.held).toHaveLength(4);
    expect(later.fresh).toEqual([]);
    expect(later.released.sort()).toEqual(vrcIds.slice(0, 4));
    // Declined ('keep'): still held. Approved: carried out.
    remembered.set('v4', 'keep').set('v5', 'apply');
    const decided = planWithBreaker(input(vrcIds.slice(4)), 4, remembered);
    expect(decided.plan.actions.map((a) => heldKeyOf(a))).toEqual(['v5']);
  });

  it('holds group roles taken from many of their holders, per role', () => {
    const members = Array.from({ length: 7 }, (_, i) => `v${i}`);
    const input: SyncPlanInput = {
      guildId: 'g',
      autoRoles: { linkedRoleId: null, plus18RoleId: null, ageVerifiedRoleId: null },
      manageableDiscordRoleIds: new Set(),
      members: [],
      group: {
        enabled: true,
        autoRemove: false,
        members: new Map([...members.map((id): [string, string[]] => [id, ['host']]), ['v9', ['host']]]),
        names: new Map(),
        pendingInvites: new Set(),
        joinRequests: new Set(),
        alreadyInvited: new Set(),
        protectedUserIds: new Set(),
        manageableRoleIds: new Set(['host']),
        can: { invite: true, remove: true, assignRoles: true },
        discordToGroup: [],
        groupToDiscord: [],
      },
      temporaryGrants: members.map((vrcUserId) => ({ kind: 'groupRole', vrcUserId, roleId: 'host' })),
    };
    const { held, plan } = planWithBreaker(input, 16, none);
    expect(held.map((a) => a.kind)).toEqual(Array(7).fill('removeGroupRole'));
    expect(plan.actions).toEqual([]);
    // Five of eight holders: not a mass removal.
    const few = { ...input, temporaryGrants: input.temporaryGrants!.slice(0, 5) };
    expect(planWithBreaker(few, 16, none).plan.actions).toHaveLength(5);
  });
});

/** One change of the world between two syncs: a member leaves the group, unlinks, or loses a Discord role. */
const worldChange = fc.tuple(
  fc.constantFrom('leave', 'unlink', 'loseRole'),
  fc.nat(20),
  fc.constantFrom(...discordRoles),
);

function changeWorld(input: SyncPlanInput, [kind, n, roleId]: [string, number, string]): SyncPlanInput {
  if (kind === 'leave' && input.group && input.group.members.size > 0) {
    const ids = [...input.group.members.keys()];
    const members = new Map(input.group.members);
    members.delete(ids[n % ids.length]);
    return { ...input, group: { ...input.group, members } };
  }
  if (input.members.length === 0) return input;
  const i = n % input.members.length;
  const members = input.members.map((m, j) =>
    j !== i
      ? m
      : kind === 'unlink'
        ? { ...m, link: null }
        : { ...m, roleIds: m.roleIds.filter((r) => r !== roleId) },
  );
  return { ...input, members };
}

describe('the removal circuit breaker (property)', () => {
  it('never carries out a held removal without Apply, across syncs, world changes and decisions', () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.array(fc.boolean(), { maxLength: 12 }),
        fc.array(
          fc.tuple(worldChange, fc.constantFrom<HeldDecision | 'none'>('none', 'none', 'keep', 'apply')),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.nat(20),
        (start, heldBefore, steps, groupSizeExtra) => {
          let input = start;
          // Some removals an earlier sync held (awaiting a decision), so holds are common in the run.
          const memory = new Map<string, HeldDecision>();
          planWithBreaker(input, 0, none)
            .wanted.actions.filter(isRemoval)
            .forEach((a, i) => {
              if (heldBefore[i]) memory.set(heldKeyOf(a) ?? '', null);
            });
          for (const [change, decision] of steps) {
            const groupSize = (input.group?.members.size ?? 0) + groupSizeExtra;
            const { plan, fresh, released } = planWithBreaker(input, groupSize, memory);
            for (const a of plan.actions.filter(isRemoval)) {
              const key = heldKeyOf(a) ?? '';
              // Held before: only an approval lets it through. New: never one this sync holds.
              if (memory.has(key)) expect(memory.get(key)).toBe('apply');
              expect(fresh).not.toContainEqual(a);
            }
            for (const key of released) memory.delete(key);
            for (const a of fresh) memory.set(heldKeyOf(a) ?? '', null);
            input = changeWorld(applyActions(input, plan.actions), change);
            // A manager's decision covers what awaits one (as 'Apply removals' and 'Discard' do).
            if (decision !== 'none') for (const [key, d] of memory) if (d === null) memory.set(key, decision);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
