import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, guildGroup, rows } from '../../../../test/factories.js';
import { followGroupAuditLogs } from '../sync/group-audit-follow.js';
import {
  GROUP_ROLES_REFRESH_AFTER_MS,
  GROUP_ROLES_YOUNG_MS,
  refreshOldGroupRoles,
} from './group-role-cache.js';

const { hangout } = seedGuildIds;
const groupId = vrchatSeed.groupIds.hangout;
const worldsUrl = `/api/guilds/${hangout.id}/worlds`;
const ROLE_READS = 'GET /groups/{groupId}/roles';

/**
 * The linked group's roles are kept in the database (group_role_cache): the world list, its previews and the
 * world data read the copy, which the follow, the mapping dialogs and groups.roles refresh and an unlink drops.
 */
describe('the group-role cache (against the simulators)', () => {
  let t: TestApp, owner: { session: string };
  const tick = () => new Promise((r) => setTimeout(r, 20));
  const roleReads = async () => {
    const { body } = await t.control('GET', '/vrchat/counters');
    return (body.byRoute as Record<string, { requests: number }>)[ROLE_READS]?.requests ?? 0;
  };
  const listWorlds = async () => {
    const res = await t.inject({ method: 'GET', url: worldsUrl, session: owner.session });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      groupRoles: { id: string; name: string }[] | null;
      groupRolesReadAt: string | null;
    };
  };
  const roleNames = async () => (await listWorlds()).groupRoles?.map((r) => r.name);

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official', enabled: true });
  });
  afterAll(() => t?.close());

  it('makes one VRChat role read for the first world list and none for the next ones or the preview', async () => {
    const before = await roleReads();
    const first = await listWorlds();
    expect(first.groupRoles?.map((r) => r.name)).toContain('Verified 18+');
    expect(first.groupRolesReadAt).not.toBeNull();
    expect((await roleReads()) - before).toBe(1);
    for (let i = 0; i < 5; i++) await listWorlds();
    const world = await t.inject({ method: 'PUT', url: worldsUrl, session: owner.session, payload: {} });
    const worldId = world.json().worlds.at(-1).id as string;
    await t.inject({
      method: 'POST',
      url: `${worldsUrl}/${worldId}`,
      session: owner.session,
      payload: { includeGroupData: true },
    });
    const preview = await t.inject({
      method: 'GET',
      url: `${worldsUrl}/preview/${worldId}`,
      session: owner.session,
    });
    expect(preview.statusCode).toBe(200);
    expect((await roleReads()) - before).toBe(1);
  });

  it('shows a role created in the group once the follow sees it, without a sync', async () => {
    await followGroupAuditLogs(t.ctx); // the first poll starts the cursor
    await tick();
    const made = await t.control('POST', `/vrchat/groups/${groupId}/roles`, { name: 'Stage Crew' });
    expect(made.status).toBe(201);
    expect(await roleNames()).not.toContain('Stage Crew'); // the copy, not VRChat
    await tick();
    expect(await followGroupAuditLogs(t.ctx)).toBe(0); // a new role alone asks for no sync
    expect(await roleNames()).toContain('Stage Crew');
  });

  it('answers the role-mapping dialogs from a copy younger than a minute, without VRChat', async () => {
    const dialog = () =>
      t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}/guild_roles`, session: owner.session });
    expect((await dialog()).statusCode).toBe(200);
    const before = await roleReads();
    for (let i = 0; i < 3; i++) expect((await dialog()).statusCode).toBe(200);
    expect((await roleReads()) - before).toBe(0);
  });

  it('reads the roles again when a manager opens the role-mapping dialogs on an older copy', async () => {
    const made = await t.control('POST', `/vrchat/groups/${groupId}/roles`, { name: 'Door Staff' });
    expect(made.status).toBe(201);
    expect(await roleNames()).not.toContain('Door Staff');
    const older = new Date(Date.now() - GROUP_ROLES_YOUNG_MS - 1000);
    await t.ctx.database.executeSql('update group_role_cache set read_at = $1 where group_id = $2', [
      older,
      groupId,
    ]);
    const dialog = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/guild_roles`,
      session: owner.session,
    });
    expect(dialog.statusCode).toBe(200);
    expect(await roleNames()).toContain('Door Staff');
  });

  it('reads old and out-of-date copies again on the slow schedule, and not fresh ones', async () => {
    expect(await refreshOldGroupRoles(t.ctx)).toBe(0);
    const old = new Date(Date.now() - GROUP_ROLES_REFRESH_AFTER_MS - 60_000);
    await t.ctx.database.executeSql('update group_role_cache set read_at = $1 where group_id = $2', [
      old,
      groupId,
    ]);
    const before = await roleReads();
    expect(await refreshOldGroupRoles(t.ctx)).toBe(1);
    expect((await roleReads()) - before).toBe(1);
    await t.ctx.database.executeSql('update group_role_cache set stale_since = now() where group_id = $1', [
      groupId,
    ]);
    expect(await refreshOldGroupRoles(t.ctx)).toBe(1);
    expect((await rows(t, 'group_role_cache', 'group_id = $1', [groupId]))[0].stale_since).toBeNull();
  });

  it('forgets the copy when the group is unlinked', async () => {
    expect(await rows(t, 'group_role_cache', 'group_id = $1', [groupId])).toHaveLength(1);
    const res = await t.inject({
      method: 'DELETE',
      url: `/api/groups/${hangout.id}`,
      session: owner.session,
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(await rows(t, 'group_role_cache', 'group_id = $1', [groupId])).toHaveLength(0);
  });
});

describe('the group-role cache when VRChat cannot be asked', () => {
  let t: TestApp, owner: { session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forOnlyInjected429s));
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official' });
  });
  afterAll(() => t?.close());

  it('answers that the roles are unknown, not an empty list, while VRChat rate limits and nothing is kept', async () => {
    await t.control('POST', '/faults', { platform: 'vrchat', kind: 'rate_limit', pathContains: '/roles' });
    try {
      const res = await t.inject({ method: 'GET', url: worldsUrl, session: owner.session });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ groupRoles: null, groupRolesReadAt: null });
      const world = await t.inject({ method: 'PUT', url: worldsUrl, session: owner.session, payload: {} });
      const worldId = world.json().worlds.at(-1).id as string;
      const pick = await t.inject({
        method: 'POST',
        url: `${worldsUrl}/${worldId}/roles`,
        session: owner.session,
        payload: { groupEncodeRoles: [vrchatSeed.roleIds.hangout.moderator] },
      });
      expect(pick.statusCode).toBe(503);
      expect(pick.json().message).toBe(
        "The VRChat group's roles could not be read right now. Try again in a minute.",
      );
    } finally {
      await t.control('DELETE', '/faults');
    }
  });
});
