/**
 * The sync under platform faults (against the simulators): VRChat rate limiting, outages and time-outs,
 * missing group permissions, the Discord role hierarchy, and a worker killed in the middle of a run.
 * Whatever happens, a later run completes the work and nothing is done twice: each invite and role change
 * shows once in the simulated group's audit log and once in the product's audit log.
 */

import { vrchatSeed } from '@vrclink/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  botSeesRoles,
  discordMember,
  discordRole,
  rows,
  simulatorRoles,
  vrchatLink,
  withoutMembersIntent,
} from '../../../../test/factories.js';
import { discordGroupMappings, guildSettings } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { DiscordError } from '../../../platforms/discord/errors.js';
import type { DiscordPort, VrchatPort } from '../../../platforms/ports.js';
import { waitFor } from '../../../platforms/testing.js';
import {
  createVrchatPlatform,
  createVrchatPool,
  dbSessionStore,
  VrchatError,
} from '../../../platforms/vrchat/index.js';
import { getSync, mirrorDeps, refreshLinkedUser } from '../../access/index.js';
import { runGuildSync, type SyncRunResult } from './sync.service.js';
import { groupId, groupRoles, hangout, hangoutGroupScene } from './testing.js';

const botVrcId = vrchatSeed.userIds['VRCLink Bot'];

/** One person of a scenario: a Discord member holding the mapped role, linked to a fresh VRChat user. */
interface Person {
  discordUserId: string;
  vrcUserId: string;
  /** Already a group member (the sync gives the mapped group role) or not (the sync invites). */
  inGroup: boolean;
}

interface GroupAuditEntry {
  eventType: string;
  targetId: string;
  data: { roleId?: string };
}

describe('the sync under platform faults (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let linkedRole: string;
  let memberRole: string;
  let scenarioNo = 0;

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forOnlyInjected429s));
    linkedRole = await discordRole(t, hangout.id, 'Linked');
    memberRole = await discordRole(t, hangout.id, 'Group Member');
    await hangoutGroupScene(t, owner, { linkedRole, memberRole });
    // Nobody is linked yet: nothing to do.
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0 });
  });
  afterEach(async () => {
    await t.control('DELETE', '/faults');
  });
  afterAll(() => t?.close());

  /** `n` people: the first half already in the group (they need the group role), the rest to invite. */
  async function scenario(n: number): Promise<Person[]> {
    scenarioNo += 1;
    const people: Person[] = [];
    for (let i = 0; i < n; i++) {
      const name = `Fault ${scenarioNo}-${i}`;
      const user = await t.control('POST', '/vrchat/users', { displayName: name });
      expect(user.status).toBe(201);
      const vrcUserId: string = user.body.id;
      const inGroup = i < n / 2;
      if (inGroup)
        expect((await t.control('POST', `/vrchat/groups/${groupId}/members/${vrcUserId}`, {})).status).toBe(
          201,
        );
      const member = await discordMember(t, hangout.id, { roles: [memberRole] });
      await vrchatLink(t, { discordUserId: member.id, vrcUserId, vrchatName: name });
      people.push({ discordUserId: member.id, vrcUserId, inGroup });
    }
    return people;
  }

  /** Until VRChat carried out every request a 'slow' fault held, those its client gave up on included. */
  async function slowRequestsLanded() {
    await waitFor(async () => {
      const res = await t.control('GET', '/faults/in-flight');
      return (res.body as { delayed: number }).delayed === 0;
    }, 30_000);
  }

  async function fault(body: Record<string, unknown>) {
    expect((await t.control('POST', '/faults', body)).status).toBe(201);
  }

  async function group() {
    const res = await t.control('GET', `/vrchat/groups/${groupId}`);
    const memberships = res.body.memberships as { userId: string; status: string; roleIds: string[] }[];
    return {
      members: new Map(memberships.map((m) => [m.userId, m])),
      audit: res.body.auditLog as GroupAuditEntry[],
    };
  }

  /** Waits until the member mirror shows what Discord holds (pg-boss waits 20 s before a retry anyway). */
  async function mirrorCaughtUp(people: readonly Person[]) {
    for (const p of people) {
      const held = (await simulatorRoles(t, hangout.id, p.discordUserId)) ?? [];
      await botSeesRoles(
        t,
        hangout.id,
        p.discordUserId,
        (r) => r.length === held.length && held.every((id) => r.includes(id)),
      );
    }
  }

  /**
   * Runs the sync as the job does: a transient failure (what the job throws so pg-boss retries) is
   * retried, anything else fails the test. Answers the errors met and the last run's result.
   */
  async function runAsJob(ctx: AppContext = t.ctx, people: readonly Person[] = [], maxRuns = 6) {
    const errors: unknown[] = [];
    for (let run = 0; run < maxRuns; run++) {
      try {
        const result = (await runGuildSync(ctx, hangout.id)) as SyncRunResult;
        return { errors, result };
      } catch (err) {
        const status = (err as { status?: number }).status;
        expect(err instanceof VrchatError || err instanceof DiscordError).toBe(true);
        expect(status === 429 || (status ?? 0) >= 500).toBe(true);
        errors.push(err);
        await mirrorCaughtUp(people);
      }
    }
    throw new Error(`the sync still failed after ${maxRuns} runs`);
  }

  /** Product audit entries by the bot for these people, counted by action and target. */
  async function productAudit(people: readonly Person[]) {
    const targets = people.flatMap((p) => [p.discordUserId, p.vrcUserId]);
    const list = await rows(t, 'audit_log', "guild_id = $1 and actor_id = 'bot' and target_id = any($2)", [
      hangout.id,
      targets,
    ]);
    const count = (action: string, targetId: string) =>
      list.filter((a) => a.action === action && a.target_id === targetId).length;
    return { list, count };
  }

  /** The end state is complete, and each action shows exactly once on both sides. */
  async function expectDoneOnce(people: readonly Person[]) {
    const { members, audit } = await group();
    const { list, count } = await productAudit(people);
    expect(list.filter((a) => a.action === 'sync.failed')).toEqual([]);
    for (const p of people) {
      const vrcEvents = audit.filter((e) => e.targetId === p.vrcUserId);
      if (p.inGroup) {
        expect(members.get(p.vrcUserId)).toMatchObject({ status: 'member', roleIds: [groupRoles.linked] });
        expect(vrcEvents.filter((e) => e.eventType === 'group.member.role.assign')).toHaveLength(1);
        expect(count('GrantRoleTemporary', p.vrcUserId)).toBe(1);
      } else {
        expect(members.get(p.vrcUserId)?.status).toBe('invited');
        expect(vrcEvents.filter((e) => e.eventType === 'group.invite.create')).toHaveLength(1);
        expect(count('Membership', p.vrcUserId)).toBe(1);
        // Recorded, so a declined invite is not sent again.
        expect(await rows(t, 'group_invites', 'vrc_user_id = $1', [p.vrcUserId])).toHaveLength(1);
      }
      expect(await simulatorRoles(t, hangout.id, p.discordUserId)).toContain(linkedRole);
      expect(count('role.auto.add', p.discordUserId)).toBe(1);
    }
    // Once the mirror caught up, nothing is left to do.
    await mirrorCaughtUp(people);
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0, writes: 0, failed: 0 });
  }

  async function syncWarnings(): Promise<string[]> {
    const res = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/sync`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(200);
    return res.json().warnings.map((w: { message: string }) => w.message);
  }

  describe('VRChat rate limiting (429)', () => {
    it('a short storm is absorbed by the pacer: the run completes, each action once', async () => {
      const people = await scenario(4);
      // Fewer 429s in a row than the transport's retries (4): every caller eventually gets through.
      await fault({ platform: 'vrchat', kind: 'rate_limit', count: 3 });
      const { errors, result } = await runAsJob(t.ctx, people);
      expect(errors).toEqual([]);
      expect(result).toMatchObject({ failed: 0, applied: 8, writes: 8 });
      await expectDoneOnce(people);
    });

    it('a longer storm on the group-role writes makes the run throw 429 (retried), the retry finishes', async () => {
      const people = await scenario(4);
      // The invites go through, then the first role write meets 6 429s: past the 4 retries.
      await fault({ platform: 'vrchat', kind: 'rate_limit', count: 6, pathContains: '/roles/' });
      const first = await runGuildSync(t.ctx, hangout.id).then(
        () => null,
        (err: unknown) => err,
      );
      expect(first).toBeInstanceOf(VrchatError);
      expect((first as VrchatError).status).toBe(429);
      // The invites of the failed run are done and audit-logged; nothing of the role writes is.
      const { members } = await group();
      for (const p of people.filter((x) => !x.inGroup))
        expect(members.get(p.vrcUserId)?.status).toBe('invited');
      const { errors } = await runAsJob(t.ctx, people);
      expect(errors).toEqual([]);
      await expectDoneOnce(people);
    }, 60_000);
  });

  describe('VRChat outages (5xx)', () => {
    it('a few 502s are retried by the transport: the run completes, each action once', async () => {
      const people = await scenario(4);
      await fault({ platform: 'vrchat', kind: 'server_error', count: 3, pathContains: '/roles/' });
      await fault({ platform: 'vrchat', kind: 'server_error', count: 2, pathContains: '/invites' });
      const { errors, result } = await runAsJob(t.ctx, people);
      expect(errors).toEqual([]);
      expect(result).toMatchObject({ failed: 0, applied: 8 });
      await expectDoneOnce(people);
    });

    it('an outage longer than the retries makes the run throw (5xx, retried); a later run finishes', async () => {
      const people = await scenario(4);
      // 8 502s: the first role write fails 5 times (run throws), the retry meets 3 more and gets through.
      await fault({ platform: 'vrchat', kind: 'server_error', count: 8, pathContains: '/roles/' });
      const { errors } = await runAsJob(t.ctx, people);
      expect(errors.length).toBe(1);
      expect((errors[0] as VrchatError).status).toBe(502);
      await expectDoneOnce(people);
    }, 60_000);

    it('a Discord outage on the role writes (past discord.js retries) is retried by the job', async () => {
      const people = await scenario(2);
      await fault({ platform: 'discord', kind: 'server_error', count: 6, pathContains: '/roles/' });
      const { errors, result } = await runAsJob(t.ctx, people);
      // discord.js retries a 5xx 3 times: the first run throws (DiscordError 503), a later one finishes.
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e instanceof DiscordError && e.status === 503)).toBe(true);
      expect(result.failed).toBe(0);
      await expectDoneOnce(people);
    }, 90_000);
  });

  describe('VRChat time-outs', () => {
    /** The same VRChat account (same stored session) with a short request time-out. */
    function withShortTimeout(timeoutMs: number) {
      const platform = createVrchatPlatform({
        config: t.ctx.config.vrchat,
        sessionStore: dbSessionStore(t.ctx.db, t.ctx.config.secretKey),
        log: t.ctx.log,
        pacer: {
          ratePerSecond: 200,
          burst: 50,
          backoffBaseMs: 5,
          backoffMaxMs: 40,
          rateLimitPauseMs: 40,
          requestTimeoutMs: timeoutMs,
        },
      });
      const vrchat = createVrchatPool({
        accounts: [{ account: t.ctx.config.vrchat.username, platform }],
        groupAccount: async () => null,
        log: t.ctx.log,
      });
      return { ctx: { ...t.ctx, vrchat } as AppContext, close: () => vrchat.close() };
    }

    it('one write answering after the time-out (but carried out) is retried without doing it twice', async () => {
      const people = await scenario(4);
      const short = withShortTimeout(400);
      try {
        // The first role write is answered after 1.5 s: the client gives up at 0.4 s and sends it again.
        await fault({ platform: 'vrchat', kind: 'slow', delayMs: 1500, count: 1, pathContains: '/roles/' });
        const { errors, result } = await runAsJob(short.ctx, people);
        expect(errors).toEqual([]);
        expect(result).toMatchObject({ failed: 0, applied: 8 });
        // Let the slow original land in the simulator: it finds the role already given.
        await slowRequestsLanded();
        await expectDoneOnce(people);
      } finally {
        await short.close();
      }
    }, 60_000);

    it('a write timing out on every retry makes the run throw 503; the next run finishes, VRChat did it once', async () => {
      const people = await scenario(2);
      const short = withShortTimeout(300);
      try {
        await fault({ platform: 'vrchat', kind: 'slow', delayMs: 900, count: 5, pathContains: '/roles/' });
        const first = await runGuildSync(short.ctx, hangout.id).then(
          () => null,
          (err: unknown) => err,
        );
        expect(first).toBeInstanceOf(VrchatError);
        expect((first as VrchatError).status).toBe(503);
        expect((first as VrchatError).message).toMatch(/timed out/);
        // Every timed-out attempt still reaches VRChat after 0.9 s: the role is given (once).
        await slowRequestsLanded();
        const { errors } = await runAsJob(short.ctx, people);
        expect(errors).toEqual([]);
        // The product never saw the role write succeed; the next run found it in place and logged it then.
        await expectDoneOnce(people);
        const { list } = await productAudit(people);
        const member = people.find((p) => p.inGroup)!;
        const grant = list.find((a) => a.action === 'GrantRoleTemporary' && a.target_id === member.vrcUserId);
        expect(grant?.details).toMatchObject({ recovered: true });
        expect(await rows(t, 'sync_intents', 'guild_id = $1', [hangout.id])).toEqual([]);
      } finally {
        await short.close();
      }
    }, 60_000);
  });

  describe('a worker killed in the middle of a run', () => {
    const WRITES: (keyof VrchatPort)[] = [
      'inviteToGroup',
      'addGroupMemberRole',
      'removeGroupMemberRole',
      'kickGroupMember',
      'respondJoinRequest',
    ];

    /** ctx.vrchat that dies (a transient error) at the write after `okWrites`, before or after sending it. */
    function dyingVrchat(okWrites: number, when: 'before' | 'after') {
      let writes = 0;
      const vrchat = new Proxy(t.ctx.vrchat, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (typeof value !== 'function' || !WRITES.includes(prop as keyof VrchatPort)) return value;
          return async (...args: unknown[]) => {
            writes += 1;
            if (writes <= okWrites) return value.apply(target, args);
            if (when === 'after') await value.apply(target, args);
            throw new VrchatError(503, 'worker killed');
          };
        },
      });
      return { ...t.ctx, vrchat } as AppContext;
    }

    it('dies before its third VRChat write: the next run does the rest, each action once', async () => {
      const people = await scenario(6);
      await expect(runGuildSync(dyingVrchat(2, 'before'), hangout.id)).rejects.toThrow('worker killed');
      const { count } = await productAudit(people);
      expect(people.filter((p) => count('Membership', p.vrcUserId) === 1)).toHaveLength(2);
      const { errors, result } = await runAsJob(t.ctx, people);
      expect(errors).toEqual([]);
      expect(result.failed).toBe(0);
      await expectDoneOnce(people);
    });

    it('dies right after a VRChat write went out: nothing is done twice, and the next run logs the lost one', async () => {
      const people = await scenario(6);
      await expect(runGuildSync(dyingVrchat(2, 'after'), hangout.id)).rejects.toThrow('worker killed');
      const { errors } = await runAsJob(t.ctx, people);
      expect(errors).toEqual([]);
      // The write in flight when the worker died is logged by the next run, which finds it in place.
      await expectDoneOnce(people);
      const { list } = await productAudit(people);
      expect(list.filter((a) => (a.details as { recovered?: boolean })?.recovered)).toHaveLength(1);
      expect(await rows(t, 'sync_intents', 'guild_id = $1', [hangout.id])).toEqual([]);
    });

    it('dies after its first Discord role write: the next run does the rest, each action once', async () => {
      const people = await scenario(4);
      let writes = 0;
      const discord: DiscordPort = {
        ...t.ctx.discord,
        async addRole(...args) {
          writes += 1;
          if (writes > 1) throw new DiscordError(503, 'worker killed');
          return t.ctx.discord.addRole(...args);
        },
      };
      await expect(runGuildSync({ ...t.ctx, discord }, hangout.id)).rejects.toThrow('worker killed');
      await mirrorCaughtUp(people);
      const { errors } = await runAsJob(t.ctx, people);
      expect(errors).toEqual([]);
      await expectDoneOnce(people);
    });
  });

  describe('what the bot may not do', () => {
    it("a bot role without 'group-roles-assign': no crash, a warning, no endless retries", async () => {
      const created = await t.control('POST', `/vrchat/groups/${groupId}/roles`, {
        name: 'Bot (no role assign)',
        order: 2,
        isManagementRole: true,
        permissions: [
          'group-members-manage',
          'group-members-remove',
          'group-members-viewall',
          'group-invites-manage',
          'group-audit-view',
        ],
      });
      expect(created.status).toBe(201);
      const setBotRoles = async (roleIds: string[]) =>
        expect(
          (await t.control('PUT', `/vrchat/groups/${groupId}/members/${botVrcId}/roles`, { roleIds })).status,
        ).toBe(200);
      await setBotRoles([created.body.id]);
      try {
        const people = await scenario(4);
        const auditBefore = (await group()).audit.length;
        const result = await runGuildSync(t.ctx, hangout.id);
        // Invites and Discord roles only; the group roles are not even tried.
        expect(result).toMatchObject({ failed: 0, applied: 6, writes: 6 });
        const { audit } = await group();
        const newEvents = audit.slice(auditBefore).map((e) => e.eventType);
        expect(newEvents.filter((e) => e === 'group.member.role.assign')).toEqual([]);
        expect(newEvents.filter((e) => e === 'group.invite.create')).toHaveLength(2);
        const warnings = await syncWarnings();
        expect(warnings).toContain(
          "The bot's role in the VRChat group lacks the permission group-roles-assign.",
        );

        await mirrorCaughtUp(people);
        const again = await runGuildSync(t.ctx, hangout.id);
        expect(again).toMatchObject({ planned: 0, writes: 0, failed: 0 });
        expect(await syncWarnings()).toContain(
          "The bot's role in the VRChat group lacks the permission group-roles-assign.",
        );
        expect((await group()).audit.length).toBe(auditBefore + 2);
      } finally {
        await setBotRoles([groupRoles.bot]);
      }
      // Permission back: the roles held back are given now.
      const { result } = await runAsJob();
      expect(result.failed).toBe(0);
    });

    it('a mapping to a group role at or above the bot (Moderator): a warning naming it, nothing tried', async () => {
      const modMapped = await discordRole(t, hangout.id, 'Mod Mapped');
      const [mapping] = await t.ctx.db
        .insert(discordGroupMappings)
        .values({
          guildId: hangout.id,
          discordRoleId: modMapped,
          groupRoleId: groupRoles.moderator,
          action: 'GrantRolePermanent',
        })
        .returning();
      try {
        const people = await scenario(2);
        const inGroup = people.find((p) => p.inGroup)!;
        await t.control('PATCH', `/discord/guilds/${hangout.id}/members/${inGroup.discordUserId}`, {
          roles: [memberRole, modMapped],
        });
        await botSeesRoles(t, hangout.id, inGroup.discordUserId, (r) => r.includes(modMapped));
        const result = await runGuildSync(t.ctx, hangout.id);
        expect(result?.failed).toBe(0);
        const message =
          "The bot cannot give or take the group role Moderator: it is at or above the bot's rank in the group, or VRChat sells it.";
        expect(await syncWarnings()).toContain(message);
        const { members } = await group();
        expect(members.get(inGroup.vrcUserId)?.roleIds).not.toContain(groupRoles.moderator);

        await mirrorCaughtUp(people);
        expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0, writes: 0, failed: 0 });
        expect(await syncWarnings()).toContain(message);
      } finally {
        await t.ctx.db.delete(discordGroupMappings).where(eq(discordGroupMappings.id, mapping!.id));
      }
    });

    it('a Linked Users Role above the bot (Admin): no action, a warning naming the role', async () => {
      const people = await scenario(2);
      await runAsJob(t.ctx, people);
      await mirrorCaughtUp(people);
      await t.ctx.db
        .update(guildSettings)
        .set({ linkedRoleId: hangout.roles.Admin })
        .where(eq(guildSettings.guildId, hangout.id));
      try {
        const auditBefore = (await rows(t, 'audit_log', "actor_id = 'bot'")).length;
        const result = await runGuildSync(t.ctx, hangout.id);
        expect(result).toMatchObject({ planned: 0, writes: 0, failed: 0 });
        expect(await syncWarnings()).toContain(
          'The bot cannot give or take the Discord role Admin: it needs Manage Roles and a role above it.',
        );
        for (const p of people)
          expect(await simulatorRoles(t, hangout.id, p.discordUserId)).not.toContain(hangout.roles.Admin);
        expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ planned: 0, writes: 0 });
        // One audit entry says which role and why, when the problem first appears; none on the next run.
        const botEntries = await rows(t, 'audit_log', "actor_id = 'bot'");
        expect(botEntries.length).toBe(auditBefore + 1);
        const warned = await rows(
          t,
          'audit_log',
          "action = 'sync.warning' and details->>'message' like '%Admin%'",
        );
        expect(warned).toHaveLength(1);
      } finally {
        await t.ctx.db
          .update(guildSettings)
          .set({ linkedRoleId: linkedRole })
          .where(eq(guildSettings.guildId, hangout.id));
      }
    });
  });
});

describe('the sync where the mirror keeps linked members only (no Server Members intent)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forOnlyInjected429s, beforeStart: withoutMembersIntent });
  });
  afterAll(() => t?.close());

  it('does not give the same Discord role again on the next run (no member event tells the mirror)', async () => {
    const linkedRole = await discordRole(t, hangout.id, 'Linked');
    await t.ctx.db
      .insert(guildSettings)
      .values({ guildId: hangout.id, linkedRoleId: linkedRole })
      .onConflictDoUpdate({ target: guildSettings.guildId, set: { linkedRoleId: linkedRole } });
    // The fill at connect is done first (it could otherwise run between the link and the sync, and miss it),
    // then the link does what linking through the product does: the mirror fetches the newly linked member.
    await waitFor(async () => (await getSync(t.ctx.db, hangout.id))?.filledAt);
    const member = await discordMember(t, hangout.id);
    await vrchatLink(t, { discordUserId: member.id, vrchatName: 'Someone' });
    await refreshLinkedUser(mirrorDeps(t.ctx), [hangout.id], member.id);
    const first = await runGuildSync(t.ctx, hangout.id);
    expect(first).toMatchObject({ applied: 1, failed: 0 });
    expect(await simulatorRoles(t, hangout.id, member.id)).toContain(linkedRole);
    const again = await runGuildSync(t.ctx, hangout.id);
    expect(again).toMatchObject({ planned: 0, writes: 0 });
    expect(await rows(t, 'audit_log', "action = 'role.auto.add'")).toHaveLength(1);
  });
});
