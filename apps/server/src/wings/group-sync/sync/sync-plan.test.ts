import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionInPlace } from './action-in-place.js';
import {
  discordRoleKey,
  groupRoleKey,
  type PlanGroup,
  planSync,
  type SyncAction,
  type SyncPlanInput,
} from './sync-plan.js';
import { applyActions, GUILD, inputArb } from './testing-plans.js';

/** The removals (members, group roles and Discord roles) a plan makes, as the breaker would hold them. */
function keepOf(actions: readonly SyncAction[]) {
  return {
    members: new Set(actions.flatMap((a) => (a.kind === 'remove' ? [a.vrcUserId] : []))),
    groupRoles: new Set(
      actions.flatMap((a) => (a.kind === 'removeGroupRole' ? [groupRoleKey(a.vrcUserId, a.roleId)] : [])),
    ),
    discordRoles: new Set(
      actions.flatMap((a) =>
        a.kind === 'removeDiscordRole' ? [discordRoleKey(a.discordUserId, a.roleId)] : [],
      ),
    ),
  };
}

const key = (a: SyncAction) => JSON.stringify({ ...a, reason: undefined });

describe('planSync (property)', () => {
  it('reaches a state on which it has nothing left to do', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { actions } = planSync(input);
        expect(planSync(applyActions(input, actions)).actions).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('with what the breaker holds kept, does none of it nor anything that follows from it, and still converges', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const keep = keepOf(planSync(input).actions);
        const held = { ...input, keep };
        const { actions } = planSync(held);
        for (const a of actions) {
          if (a.kind === 'remove') expect(keep.members.has(a.vrcUserId)).toBe(false);
          if (a.kind === 'removeGroupRole')
            expect(keep.groupRoles.has(groupRoleKey(a.vrcUserId, a.roleId))).toBe(false);
          if (a.kind === 'removeDiscordRole')
            expect(keep.discordRoles.has(discordRoleKey(a.discordUserId, a.roleId))).toBe(false);
        }
        expect(planSync(applyActions(held, actions)).actions).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives what the VRChat side grants only to ownership-verified links', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        for (const a of planSync(input).actions) {
          if (a.kind !== 'addDiscordRole' || a.reason === 'LinkedRole') continue;
          const member = input.members.find((m) => m.discordUserId === a.discordUserId);
          expect(member?.link?.verified).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('does nothing on VRChat for an unproven link: its account is planned as if nobody had linked it', () => {
    const vrchatSide = (actions: readonly SyncAction[]) =>
      actions.filter((a) => 'vrcUserId' in a).map((a) => JSON.stringify(a));
    fc.assert(
      fc.property(inputArb, (input) => {
        const unlinked = {
          ...input,
          members: input.members.map((m) => (m.link && !m.link.verified ? { ...m, link: null } : m)),
        };
        expect(vrchatSide(planSync(input).actions)).toEqual(vrchatSide(planSync(unlinked).actions));
      }),
      { numRuns: 2000 },
    );
  });

  it('invites, accepts, gives or revokes group roles and removes by a mapping only for ownership-verified links', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const unproven = new Set(
          input.members.flatMap((m) => (m.link && !m.link.verified ? [m.link.vrcUserId] : [])),
        );
        for (const a of planSync(input).actions) {
          if (!('vrcUserId' in a)) continue;
          // Never named as acting for the member who claims the account without proof.
          if (unproven.has(a.vrcUserId)) expect(a.discordUserId).toBeNull();
          // Taking back what the bot's temporary grants gave, and Auto Remove, concern anyone in the group.
          const undo = a.kind === 'removeGroupRole' && a.reason === 'GrantRoleTemporary';
          if (undo || a.reason === 'AutoRemove') continue;
          const member = input.members.find((m) => m.discordUserId === a.discordUserId);
          expect(member?.link?.verified, JSON.stringify(a)).toBe(true);
          expect(member?.link?.vrcUserId).toBe(a.vrcUserId);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a temporary role back only for a temporary mapping or a recorded temporary grant', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        for (const a of planSync(input).actions) {
          if (a.reason !== 'GrantRoleTemporary') continue;
          if (a.kind !== 'removeDiscordRole' && a.kind !== 'removeGroupRole') continue;
          const mapped =
            a.kind === 'removeDiscordRole'
              ? input.group?.groupToDiscord.some((r) => r.action === a.reason && r.discordRoleId === a.roleId)
              : input.group?.discordToGroup.some((r) => r.action === a.reason && r.groupRoleId === a.roleId);
          const recorded = input.temporaryGrants?.some(
            (g) =>
              g.roleId === a.roleId &&
              (g.kind === 'discordRole'
                ? g.discordUserId === a.discordUserId
                : 'vrcUserId' in a && g.vrcUserId === a.vrcUserId),
          );
          expect(mapped || recorded).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('removes a person from the group before inviting them again', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { actions } = planSync(input);
        actions.forEach((a, i) => {
          if (a.kind !== 'invite') return;
          const removal = actions.findIndex((x) => x.kind === 'remove' && x.vrcUserId === a.vrcUserId);
          if (removal >= 0) expect(removal).toBeLessThan(i);
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('tells a write that landed from one that did not (actionInPlace, for answers lost in a crash)', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        // Each action on the state the earlier ones made (a role is given after the join request is accepted).
        let state = input;
        for (const a of planSync(input).actions) {
          expect(actionInPlace(state, a), key(a)).toBe(false);
          state = applyActions(state, [a]);
          expect(actionInPlace(state, a), key(a)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never does the same thing twice and never asks for what is already so', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { actions } = planSync(input);
        expect(new Set(actions.map(key)).size).toBe(actions.length);
        const removed = new Set(actions.filter((a) => a.kind === 'remove').map((a) => a.vrcUserId));
        // A loop in the rules (a group role grants, through group to Discord, a Discord role that NoMembership
        // keeps out) makes "remove, then invite again without that role" what the rules ask: only then may a
        // plan do both for one person.
        const loop = input.group?.groupToDiscord.some(
          (g) =>
            g.action !== 'None' &&
            input.group?.discordToGroup.some(
              (d) => d.action === 'NoMembership' && d.discordRoleId === g.discordRoleId,
            ),
        );
        for (const a of actions)
          if ((a.kind === 'invite' || a.kind === 'acceptRequest') && !loop)
            expect(removed.has(a.vrcUserId)).toBe(false);
        for (const a of actions) {
          const groupRoles = input.group?.members.get('vrcUserId' in a ? a.vrcUserId : '');
          const discord = input.members.find(
            (m) => 'discordUserId' in a && m.discordUserId === a.discordUserId,
          );
          if (a.kind === 'addGroupRole') expect(groupRoles ?? []).not.toContain(a.roleId);
          if (a.kind === 'removeGroupRole') expect(groupRoles).toContain(a.roleId);
          if (a.kind === 'addDiscordRole') expect(discord?.roleIds).not.toContain(a.roleId);
          if (a.kind === 'removeDiscordRole') expect(discord?.roleIds).toContain(a.roleId);
          if (a.kind === 'remove') expect(groupRoles).toBeDefined();
          if (a.kind === 'invite') {
            if (!(loop && removed.has(a.vrcUserId))) expect(groupRoles).toBeUndefined();
            expect(input.group?.pendingInvites.has(a.vrcUserId)).toBe(false);
            expect(input.group?.alreadyInvited.has(a.vrcUserId)).toBe(false);
          }
          if (a.kind === 'acceptRequest') expect(input.group?.joinRequests.has(a.vrcUserId)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('removes only members a NoMembership mapping or Auto Remove asks to remove', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { actions } = planSync(input);
        for (const a of actions.filter((x) => x.kind === 'remove')) {
          const group = input.group!;
          expect(group.enabled && group.can.remove).toBe(true);
          if (group.autoRemove) continue;
          const member = input.members.find((m) => m.link?.vrcUserId === a.vrcUserId)!;
          expect(a.reason).toBe('NoMembership');
          const noMembershipRoles = group.discordToGroup
            .filter((r) => r.action === 'NoMembership')
            .map((r) => r.discordRoleId);
          // Held now, or given in the same plan (auto roles, group-to-Discord grants).
          const given = actions.flatMap((x) =>
            x.kind === 'addDiscordRole' && x.discordUserId === member.discordUserId ? [x.roleId] : [],
          );
          // …or due to them for a group role they hold (a group-to-Discord mapping), even if taken back after.
          const groupRoles = group.members.get(a.vrcUserId) ?? [];
          const dueFromGroup = group.groupToDiscord
            .filter((r) => r.action !== 'None' && r.groupRoleId && groupRoles.includes(r.groupRoleId))
            .map((r) => r.discordRoleId ?? '');
          const heldOrGranted = (roleId: string | null) =>
            roleId === GUILD || [...member.roleIds, ...given, ...dueFromGroup].includes(roleId ?? '');
          expect(noMembershipRoles.some(heldOrGranted)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never touches a role or member the bot may not manage, and in a disabled group only ends temporary roles', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        for (const a of planSync(input).actions) {
          if (a.kind === 'addDiscordRole' || a.kind === 'removeDiscordRole') {
            expect(input.manageableDiscordRoleIds.has(a.roleId)).toBe(true);
            continue;
          }
          const group = input.group!;
          // Groups feature off: the only group change is taking a temporary role the bot recorded giving.
          if (!group.enabled) {
            expect(a.kind).toBe('removeGroupRole');
            const recorded = input.temporaryGrants?.some(
              (g) =>
                g.kind === 'groupRole' &&
                g.vrcUserId === a.vrcUserId &&
                'roleId' in a &&
                g.roleId === a.roleId,
            );
            expect(recorded).toBe(true);
          }
          expect(group.protectedUserIds.has(a.vrcUserId)).toBe(false);
          if (a.kind === 'addGroupRole' || a.kind === 'removeGroupRole') {
            expect(group.manageableRoleIds.has(a.roleId)).toBe(true);
            expect(group.can.assignRoles).toBe(true);
          }
          if (a.kind === 'invite' || a.kind === 'acceptRequest') expect(group.can.invite).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('planSync (examples)', () => {
  const group = (over: Partial<PlanGroup> = {}): PlanGroup => ({
    enabled: true,
    autoRemove: false,
    members: new Map(),
    names: new Map(),
    pendingInvites: new Set(),
    joinRequests: new Set(),
    alreadyInvited: new Set(),
    protectedUserIds: new Set(['owner', 'bot']),
    manageableRoleIds: new Set(['r1', 'r2']),
    can: { invite: true, remove: true, assignRoles: true },
    discordToGroup: [],
    groupToDiscord: [],
    ...over,
  });
  const linked = (
    i: number,
    roleIds: string[],
    verified = true,
    age: 'Plus18' | 'Unverified' = 'Plus18',
  ) => ({
    discordUserId: `m${i}`,
    name: `m${i}`,
    roleIds,
    link: { vrcUserId: `v${i}`, vrchatName: `v${i}`, verified, age },
  });
  const base = (over: Partial<SyncPlanInput>): SyncPlanInput => ({
    guildId: GUILD,
    autoRoles: { linkedRoleId: null, plus18RoleId: null, ageVerifiedRoleId: null },
    manageableDiscordRoleIds: new Set(['d1', 'd2', 'linked', 'adult']),
    members: [],
    group: null,
    ...over,
  });

  it('gives the linked and 18+ roles to exactly the members they describe', () => {
    const plan = planSync(
      base({
        autoRoles: { linkedRoleId: 'linked', plus18RoleId: 'adult', ageVerifiedRoleId: null },
        members: [
          linked(1, []),
          linked(2, ['adult'], false, 'Plus18'),
          { discordUserId: 'm3', name: 'm3', roleIds: ['linked', 'adult'], link: null },
        ],
      }),
    );
    expect(plan.actions).toEqual([
      { kind: 'addDiscordRole', discordUserId: 'm1', roleId: 'linked', reason: 'LinkedRole' },
      { kind: 'addDiscordRole', discordUserId: 'm1', roleId: 'adult', reason: 'Plus18Role' },
      { kind: 'addDiscordRole', discordUserId: 'm2', roleId: 'linked', reason: 'LinkedRole' },
      { kind: 'removeDiscordRole', discordUserId: 'm2', roleId: 'adult', reason: 'Plus18Role' },
      { kind: 'removeDiscordRole', discordUserId: 'm3', roleId: 'linked', reason: 'LinkedRole' },
      { kind: 'removeDiscordRole', discordUserId: 'm3', roleId: 'adult', reason: 'Plus18Role' },
    ]);
  });

  it('warns instead of acting on a role above the bot', () => {
    const plan = planSync(
      base({
        autoRoles: { linkedRoleId: 'high', plus18RoleId: null, ageVerifiedRoleId: null },
        members: [linked(1, [])],
      }),
    );
    expect(plan.actions).toEqual([]);
    expect(plan.warnings).toEqual([{ kind: 'discordRole', subject: 'high', reason: 'LinkedRole' }]);
  });

  it('invites, accepts a join request, then gives the temporary role to the accepted member', () => {
    const plan = planSync(
      base({
        members: [linked(1, ['d1']), linked(2, ['d1']), linked(3, [])],
        group: group({
          joinRequests: new Set(['v2']),
          discordToGroup: [
            { discordRoleId: 'd1', groupRoleId: null, action: 'Membership' },
            { discordRoleId: 'd1', groupRoleId: 'r1', action: 'GrantRoleTemporary' },
          ],
        }),
      }),
    );
    expect(plan.actions).toEqual([
      { kind: 'invite', vrcUserId: 'v1', discordUserId: 'm1', reason: 'Membership' },
      { kind: 'acceptRequest', vrcUserId: 'v2', discordUserId: 'm2', reason: 'Membership' },
      {
        kind: 'addGroupRole',
        vrcUserId: 'v2',
        discordUserId: 'm2',
        roleId: 'r1',
        reason: 'GrantRoleTemporary',
      },
    ]);
  });

  it('takes a temporary role back but keeps a permanent one when the Discord role goes', () => {
    const plan = planSync(
      base({
        members: [linked(1, [])],
        group: group({
          members: new Map([['v1', ['r1', 'r2']]]),
          discordToGroup: [
            { discordRoleId: 'd1', groupRoleId: 'r1', action: 'GrantRoleTemporary' },
            { discordRoleId: 'd1', groupRoleId: 'r2', action: 'GrantRolePermanent' },
          ],
        }),
      }),
    );
    expect(plan.actions).toEqual([
      {
        kind: 'removeGroupRole',
        vrcUserId: 'v1',
        discordUserId: 'm1',
        roleId: 'r1',
        reason: 'GrantRoleTemporary',
      },
    ]);
  });

  it('auto-removes members nobody entitles, except the owner, the bot and unlisted people', () => {
    const plan = planSync(
      base({
        members: [linked(1, ['d1']), linked(2, [])],
        group: group({
          autoRemove: true,
          members: new Map([
            ['v1', []],
            ['v2', []],
            ['owner', []],
            ['bot', []],
            ['stranger', []],
          ]),
          discordToGroup: [{ discordRoleId: 'd1', groupRoleId: null, action: 'Membership' }],
        }),
      }),
    );
    expect(plan.actions).toEqual([
      { kind: 'remove', vrcUserId: 'v2', discordUserId: 'm2', reason: 'AutoRemove' },
      { kind: 'remove', vrcUserId: 'stranger', discordUserId: null, reason: 'AutoRemove' },
    ]);
  });

  it('gives a Discord role for a group role and does nothing with the group feature off', () => {
    const plan = planSync(
      base({
        members: [linked(1, [])],
        group: group({
          enabled: false,
          autoRemove: true,
          members: new Map([
            ['v1', ['r1']],
            ['stranger', []],
          ]),
          groupToDiscord: [{ groupRoleId: 'r1', discordRoleId: 'd2', action: 'GrantRolePermanent' }],
        }),
      }),
    );
    expect(plan.actions).toEqual([
      { kind: 'addDiscordRole', discordUserId: 'm1', roleId: 'd2', reason: 'GrantRolePermanent' },
    ]);
  });

  it('resolves a loop in the rules (a group role grants a Discord role that NoMembership keeps out) by removing, then inviting again', () => {
    const input = base({
      members: [linked(1, [])],
      group: group({
        members: new Map([['v1', ['r1']]]),
        discordToGroup: [
          { discordRoleId: GUILD, groupRoleId: null, action: 'Membership' },
          { discordRoleId: 'd1', groupRoleId: null, action: 'NoMembership' },
        ],
        groupToDiscord: [{ groupRoleId: 'r1', discordRoleId: 'd1', action: 'GrantRoleTemporary' }],
      }),
    });
    const plan = planSync(input);
    // In this order: VRChat refuses to invite someone still in the group.
    expect(plan.actions.map((a) => `${a.kind} ${'vrcUserId' in a ? a.vrcUserId : a.discordUserId}`)).toEqual([
      'remove v1',
      'invite v1',
    ]);
    // Back in the group without r1, nothing feeds the loop: the next sync has nothing to do.
    expect(planSync(applyActions(input, plan.actions)).actions).toEqual([]);
  });

  it('gives group-to-Discord roles to a verified link only, and takes a temporary one from an unverified link', () => {
    const g = group({
      members: new Map([
        ['v1', ['r1']],
        ['v2', ['r1']],
      ]),
      groupToDiscord: [
        { groupRoleId: 'r1', discordRoleId: 'd1', action: 'GrantRolePermanent' },
        { groupRoleId: 'r1', discordRoleId: 'd2', action: 'GrantRoleTemporary' },
      ],
    });
    const plan = planSync(base({ members: [linked(1, []), linked(2, ['d2'], false)], group: g }));
    expect(plan.actions).toEqual([
      { kind: 'addDiscordRole', discordUserId: 'm1', roleId: 'd1', reason: 'GrantRolePermanent' },
      { kind: 'addDiscordRole', discordUserId: 'm1', roleId: 'd2', reason: 'GrantRoleTemporary' },
      { kind: 'removeDiscordRole', discordUserId: 'm2', roleId: 'd2', reason: 'GrantRoleTemporary' },
    ]);
  });

  it('does nothing on VRChat through an unproven link, and ends the temporary role it once got', () => {
    const plan = planSync(
      base({
        members: [linked(1, ['d1'], false), linked(2, ['d1'], false)],
        group: group({
          members: new Map([['v1', ['r1']]]),
          discordToGroup: [
            { discordRoleId: 'd1', groupRoleId: null, action: 'Membership' },
            { discordRoleId: 'd1', groupRoleId: 'r1', action: 'GrantRoleTemporary' },
            { discordRoleId: 'd1', groupRoleId: 'r2', action: 'GrantRolePermanent' },
          ],
        }),
        // Given while such links still counted (before issue #29).
        temporaryGrants: [{ kind: 'groupRole', vrcUserId: 'v1', roleId: 'r1' }],
      }),
    );
    // v2 is not invited, v1 gets no r2 and loses the r1 the claim got it, named for nobody.
    expect(plan.actions).toEqual([
      {
        kind: 'removeGroupRole',
        vrcUserId: 'v1',
        discordUserId: null,
        roleId: 'r1',
        reason: 'GrantRoleTemporary',
      },
    ]);
  });

  it('ends the temporary grants the bot made when the member unlinks, in both directions', () => {
    const plan = planSync(
      base({
        members: [{ discordUserId: 'm1', name: 'm1', roleIds: ['d1', 'd2'], link: null }],
        group: group({
          members: new Map([['v1', ['r1', 'r2']]]),
          discordToGroup: [{ discordRoleId: 'd2', groupRoleId: 'r1', action: 'GrantRoleTemporary' }],
          groupToDiscord: [{ groupRoleId: 'r1', discordRoleId: 'd1', action: 'GrantRoleTemporary' }],
        }),
        temporaryGrants: [
          { kind: 'discordRole', discordUserId: 'm1', roleId: 'd1' },
          { kind: 'groupRole', vrcUserId: 'v1', roleId: 'r1' },
        ],
      }),
    );
    // r2 and d2 were not given by the bot's temporary grants: they stay.
    expect(plan.actions).toEqual([
      {
        kind: 'removeGroupRole',
        vrcUserId: 'v1',
        discordUserId: null,
        roleId: 'r1',
        reason: 'GrantRoleTemporary',
      },
      { kind: 'removeDiscordRole', discordUserId: 'm1', roleId: 'd1', reason: 'GrantRoleTemporary' },
    ]);
  });

  it('ends the temporary group role of a member who left the server (still linked, no longer a member here)', () => {
    const plan = planSync(
      base({
        members: [],
        group: group({
          members: new Map([['v1', ['r1']]]),
          discordToGroup: [{ discordRoleId: 'd1', groupRoleId: 'r1', action: 'GrantRoleTemporary' }],
        }),
        temporaryGrants: [{ kind: 'groupRole', vrcUserId: 'v1', roleId: 'r1' }],
      }),
    );
    expect(plan.actions).toEqual([
      {
        kind: 'removeGroupRole',
        vrcUserId: 'v1',
        discordUserId: null,
        roleId: 'r1',
        reason: 'GrantRoleTemporary',
      },
    ]);
  });

  it('with the Groups feature off, takes the temporary group roles the bot gave, and changes nothing else', () => {
    const plan = planSync(
      base({
        // m1 still holds the mapped Discord role, m2 is linked but lost it, v3 is linked to nobody here.
        members: [linked(1, ['d1']), linked(2, [])],
        group: group({
          enabled: false,
          autoRemove: true,
          members: new Map([
            ['v1', ['r1', 'r2']],
            ['v2', ['r1']],
            ['v3', ['r1']],
            ['owner', ['r1']],
          ]),
          discordToGroup: [
            { discordRoleId: 'd1', groupRoleId: 'r1', action: 'GrantRoleTemporary' },
            { discordRoleId: 'd1', groupRoleId: 'r2', action: 'GrantRolePermanent' },
            { discordRoleId: 'd2', groupRoleId: null, action: 'NoMembership' },
          ],
        }),
        temporaryGrants: [
          { kind: 'groupRole', vrcUserId: 'v1', roleId: 'r1' },
          { kind: 'groupRole', vrcUserId: 'v2', roleId: 'r1' },
          { kind: 'groupRole', vrcUserId: 'v3', roleId: 'r1' },
          { kind: 'groupRole', vrcUserId: 'owner', roleId: 'r1' },
        ],
      }),
    );
    // r2 (permanent), membership and Auto Remove are untouched; the owner is never changed.
    const taken = (vrcUserId: string, discordUserId: string | null) => ({
      kind: 'removeGroupRole',
      vrcUserId,
      discordUserId,
      roleId: 'r1',
      reason: 'GrantRoleTemporary',
    });
    expect(plan.actions).toEqual([taken('v1', 'm1'), taken('v2', 'm2'), taken('v3', null)]);
  });

  it('takes what a changed temporary mapping gave under its old row and gives what the new row says', () => {
    const plan = planSync(
      base({
        members: [linked(1, ['d1'])],
        group: group({
          members: new Map([['v1', ['r1']]]),
          discordToGroup: [{ discordRoleId: 'd1', groupRoleId: 'r2', action: 'GrantRoleTemporary' }],
        }),
        temporaryGrants: [{ kind: 'groupRole', vrcUserId: 'v1', roleId: 'r1' }],
      }),
    );
    expect(plan.actions).toEqual([
      {
        kind: 'addGroupRole',
        vrcUserId: 'v1',
        discordUserId: 'm1',
        roleId: 'r2',
        reason: 'GrantRoleTemporary',
      },
      {
        kind: 'removeGroupRole',
        vrcUserId: 'v1',
        discordUserId: 'm1',
        roleId: 'r1',
        reason: 'GrantRoleTemporary',
      },
    ]);
  });

  it('holds what depends on a held removal with it (the Discord role a kept group role grants)', () => {
    const input = base({
      members: [linked(1, ['d1'])],
      group: group({
        autoRemove: true,
        members: new Map([['v1', ['r1']]]),
        groupToDiscord: [{ groupRoleId: 'r1', discordRoleId: 'd1', action: 'GrantRoleTemporary' }],
      }),
    });
    expect(planSync(input).actions).toEqual([
      { kind: 'remove', vrcUserId: 'v1', discordUserId: 'm1', reason: 'AutoRemove' },
      { kind: 'removeDiscordRole', discordUserId: 'm1', roleId: 'd1', reason: 'GrantRoleTemporary' },
    ]);
    expect(planSync({ ...input, keep: { members: new Set(['v1']) } }).actions).toEqual([]);
  });
});
