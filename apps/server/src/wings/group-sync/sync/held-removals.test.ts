import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  discordRole,
  guildGroup,
  rows,
  vrchatLink,
} from '../../../../test/factories.js';
import { discordGroupMappings } from '../../../db/schema/index.js';
import { runGuildSync } from './sync.service.js';
import { groupId, groupRoles, hangout, vrc } from './testing.js';

const base = `/api/guilds/${hangout.id}/sync`;
type View = { kind: string; vrcUserId: string | null; targetName: string; roleName: string | null };

/** The Hangout group's members as the simulated VRChat holds them: userId → roles. */
async function groupMembers(t: TestApp) {
  const res = await t.control('GET', `/vrchat/groups/${groupId}`);
  const list = res.body.memberships as { userId: string; status: string; roleIds: string[] }[];
  return new Map(list.filter((m) => m.status === 'member').map((m) => [m.userId, m.roleIds]));
}

describe('held removals stay held until a manager applies them', () => {
  let t: TestApp, owner: { session: string };
  const get = (url: string) => t.inject({ method: 'GET', url, session: owner.session });
  /** Every held removal awaiting a decision, read page by page as the tabs do. */
  async function allHeld(pageSize: number): Promise<View[]> {
    const seen: View[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`${base}/held?page=${page}&pageSize=${pageSize}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.actions);
      if (body.actions.length < pageSize) {
        expect(seen).toHaveLength(body.total);
        return seen;
      }
    }
  }

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    // Nobody linked, Auto Remove on: the rules ask to remove every member the bot may remove (13 of 16).
    await guildGroup(t, {
      guildId: hangout.id,
      groupId,
      name: 'VRC Hangout Official',
      enabled: true,
      autoKick: true,
    });
  });
  afterAll(() => t?.close());

  it('keeps holding what it held after most of them left, though the rest is below the count, and after Discard', async () => {
    const first = await runGuildSync(t.ctx, hangout.id);
    expect(first?.held).toBe(13);
    const held = await allHeld(5);
    expect(new Set(held.map((h) => h.vrcUserId)).size).toBe(13);
    expect(held.every((h) => h.kind === 'remove')).toBe(true);

    // Eight of them leave the group: five removals are left, under the breaker's count.
    const leaving = held.slice(0, 8).map((h) => h.vrcUserId!);
    const staying = held.slice(8).map((h) => h.vrcUserId!);
    for (const id of leaving) await t.control('POST', `/vrchat/groups/${groupId}/members/${id}/leave`);
    const second = await runGuildSync(t.ctx, hangout.id);
    expect(second).toMatchObject({ held: 5, applied: 0 });
    for (const id of staying) expect((await groupMembers(t)).has(id)).toBe(true);
    expect((await allHeld(50)).map((h) => h.vrcUserId).sort()).toEqual([...staying].sort());
    // The ones that left are let go (their cause is gone), audit-logged.
    const released = await rows(t, 'audit_log', "action = 'sync.removals_released'");
    expect(released).toHaveLength(1);
    expect(released[0].details).toMatchObject({ count: 8 });

    // Discard declines them: still held, never applied by a later sync.
    const discard = await t.inject({
      method: 'POST',
      url: `${base}/held`,
      session: owner.session,
      payload: { decision: 'discard' },
    });
    expect(discard.json()).toEqual({ count: 5 });
    await runGuildSync(t.ctx, hangout.id);
    const members = await groupMembers(t);
    for (const id of staying) expect(members.has(id)).toBe(true);
    const status = (await get(base)).json();
    expect(status).toMatchObject({ held: null, keptRemovals: 5 });
    expect(await rows(t, 'audit_log', "action = 'NoMembership'")).toHaveLength(0);

    // A manager who changes their mind brings them back for a decision, and Apply then carries them out.
    const decide = (decision: string) =>
      t.inject({ method: 'POST', url: `${base}/held`, session: owner.session, payload: { decision } });
    const review = await decide('review');
    expect(review.json()).toEqual({ count: 5 });
    expect((await get(base)).json()).toMatchObject({ held: { count: 5 }, keptRemovals: 0 });
    expect(await rows(t, 'audit_log', "action = 'sync.removals_reviewed'")).toHaveLength(1);
    const again = await decide('review');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('No discarded removals are kept for this server.');
    expect((await decide('apply')).json()).toEqual({ count: 5 });
    await runGuildSync(t.ctx, hangout.id);
    const after = await groupMembers(t);
    for (const id of staying) expect(after.has(id)).toBe(false);
  });

  it('answers a page past the end empty and a bad page with a sentence', async () => {
    expect((await get(`${base}/held?page=9`)).json()).toMatchObject({ total: 0, actions: [] });
    const bad = await get(`${base}/held?page=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The page must be a whole number from 1.');
  });
});

describe('group-role removals are held like other mass removals', () => {
  let t: TestApp, owner: { session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official', enabled: true });
  });
  afterAll(() => t?.close());

  it('holds a group role taken from 7 of its 8 holders when its mapping is deleted', async () => {
    const hosts = await discordRole(t, hangout.id, 'Hosts');
    const names = [
      'Iris Nova',
      'Jasper Vale',
      'Lumi',
      'Moth Queen',
      'Orion Drift',
      'Quill',
      'Raven Hollow',
    ] as const;
    for (const name of names) {
      const member = await discordMember(t, hangout.id, { roles: [hosts] });
      await vrchatLink(t, { discordUserId: member.id, vrcUserId: vrc[name], vrchatName: name });
    }
    const [mapping] = await t.ctx.db
      .insert(discordGroupMappings)
      .values({
        guildId: hangout.id,
        discordRoleId: hosts,
        groupRoleId: groupRoles.eventHost,
        action: 'GrantRoleTemporary',
      })
      .returning();
    await runGuildSync(t.ctx, hangout.id);
    for (const name of names) expect((await groupMembers(t)).get(vrc[name])).toContain(groupRoles.eventHost);

    const del = await t.inject({
      method: 'DELETE',
      url: `/api/guilds/${hangout.id}/guild_roles/${mapping.id}`,
      session: owner.session,
    });
    expect(del.statusCode).toBeLessThan(300);
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result).toMatchObject({ held: 7, applied: 0 });
    const members = await groupMembers(t);
    for (const name of names) expect(members.get(vrc[name])).toContain(groupRoles.eventHost);

    const status = (await t.inject({ method: 'GET', url: base, session: owner.session })).json();
    expect(status.held.count).toBe(7);
    expect(status.held.actions).toHaveLength(7);
    for (const a of status.held.actions)
      expect(a).toMatchObject({ kind: 'removeGroupRole', roleName: 'Event Host' });

    // Applied: the next sync takes them.
    const apply = await t.inject({
      method: 'POST',
      url: `${base}/held`,
      session: owner.session,
      payload: { decision: 'apply' },
    });
    expect(apply.json()).toEqual({ count: 7 });
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ applied: 7, held: 0 });
    const after = await groupMembers(t);
    for (const name of names) expect(after.get(vrc[name])).not.toContain(groupRoles.eventHost);
    // Glimmer's Event Host was never the bot's to take.
    expect(after.get(vrc.Glimmer)).toContain(groupRoles.eventHost);
  });
});
