import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  botSeesRoles,
  discordMember,
  discordRole,
  roleConnectionOf,
  rows,
  signInHangoutOwner,
  signInMember,
  signInWithDiscord as signInThroughDiscord,
  simulatorRoles,
  updateVrchatUser,
  vrchatUser,
} from '../../../../test/factories.js';
import { apiKeys, apiLog, guests } from '../../../db/schema/index.js';
import { accountEraseHandler } from '../../../jobs/handlers/account-erase.js';
import { linkEventsHandler } from '../../../jobs/handlers/link-events.js';
import { linkedRolesUpdateHandler } from '../../../jobs/handlers/linked-roles-update.js';
import { startJobWorker } from '../../../jobs/worker.js';
import { waitFor } from '../../../platforms/testing.js';
import { runGuildSync } from '../../group-sync/index.js';
import { createSession } from '../auth/session.service.js';
import { closeFinishedErasures } from './account-erasure.js';
import { USERNAME_MISMATCH } from './privacy.schemas.js';

const { hangout } = seedGuildIds;

/**
 * Tables that may still hold a deleted user's Discord id, and why. Anything else fails the every-table check,
 * so a table added later without handling in the erasure fails this test.
 */
const MAY_STILL_HOLD: Record<string, string> = {
  // Discord's own member list of a server the person is still in (re-learnt from every gateway event).
  'public.guild_members': 'member mirror of a server they are still in',
};

describe('privacy self-service: download my data, delete my account (against the simulators)', () => {
  let t: TestApp;
  let stopWorker: () => Promise<void>;
  let owner: { id: string; session: string };
  let member: { id: string; username: string };
  let session: string;
  let sdkToken: string;
  let linkedRole: string;
  let guestRole: string;
  let vrcId: string;

  beforeAll(async () => {
    // Demo mode (the simulator) turns Linked Roles on.
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    stopWorker = await startJobWorker(t.ctx, [
      linkEventsHandler,
      linkedRolesUpdateHandler,
      accountEraseHandler,
    ]);
    owner = await signInHangoutOwner(t);
    linkedRole = await discordRole(t, hangout.id, 'Linked');
    guestRole = await discordRole(t, hangout.id, 'Guest');
    const saved = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}`,
      session: owner.session,
      payload: { autoAssignRoles: { linkedRoleId: linkedRole } },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    // A member who signs in with Discord (OAuth tokens kept for Linked Roles), links VRChat, is a guest
    // of the owner, holds a server permission, made an API key, called the API and approved the SDK.
    member = await discordMember(t, hangout.id, { roles: [guestRole], username: 'erase_me' });
    session = await signInWithDiscord(member.id);
    sdkToken = await createSession(t.ctx.db, member.id, 'sdk');
    const vrc = await vrchatUser(t, { displayName: 'Erase Me VRC' });
    vrcId = vrc.id;
    const linked = await t.inject({ method: 'POST', url: `/api/users/link?vrcId=${vrcId}`, session });
    expect(linked.statusCode, linked.body).toBe(200);
    // Ownership proven with the bio code: Linked Roles count only a verified link.
    const check = await t.inject({ method: 'GET', url: `/api/users/check?vrcId=${vrcId}`, session });
    await updateVrchatUser(t, vrcId, { bio: `code ${check.json().verificationCode}` });
    const verified = await t.inject({ method: 'POST', url: `/api/users/verify?vrcId=${vrcId}`, session });
    expect(verified.statusCode, verified.body).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    await botSeesRoles(t, hangout.id, member.id, (r) => r.includes(linkedRole));
    await waitFor(async () => (await connectionOf(member.id))?.metadata.linked === '1', 15_000);
    await t.ctx.db.insert(guests).values({
      guildId: hangout.id,
      hostUserId: owner.id,
      guestRoleId: guestRole,
      guestDiscordId: member.id,
      guestUsername: member.username,
    });
    const granted = await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${member.id}`,
      session: owner.session,
      payload: { permissions: ['ViewWorlds'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    await t.ctx.db.insert(apiKeys).values({
      guildId: hangout.id,
      name: 'Member key',
      tokenHash: 'secret-token-hash-of-the-key',
      permissions: ['ViewMembers'],
      createdBy: member.id,
      validUntil: new Date(Date.now() + 86_400_000),
    });
    await t.ctx.db.insert(apiLog).values({
      guildId: hangout.id,
      userId: member.id,
      method: 'GET',
      path: '/api/v1/x',
      status: 200,
      durationMs: 3,
    });
  });
  afterAll(async () => {
    await stopWorker?.();
    await t?.close();
  });

  const signInWithDiscord = (userId: string) => signInThroughDiscord(t, userId);

  const connectionOf = (userId: string) => roleConnectionOf(t, userId);

  /**
   * Every text, JSON or array column of every table that mentions `needle`: the product's schema and the job
   * queue's (pg-boss keeps payloads).
   */
  async function tablesMentioning(needle: string) {
    const { rows: columns } = await t.ctx.database.executeSql(
      `select c.table_schema || '.' || c.table_name as table_name, c.column_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema in ('public', 'pgboss') and t.table_type = 'BASE TABLE'
         and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`,
    );
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns as {
      table_name: string;
      column_name: string;
    }[]) {
      const { rows: hits } = await t.ctx.database.executeSql(
        `select count(*)::int as n from ${table} where strpos("${column}"::text, $1) > 0`,
        [needle],
      );
      if ((hits[0]?.n as number) > 0) found.push(`${table}.${column}`);
    }
    return found;
  }

  describe('GET /api/users/profile/export', () => {
    it('answers a JSON file with everything held about the caller, and no secret', async () => {
      const res = await t.inject({ method: 'GET', url: '/api/users/profile/export', session });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="vrclink-my-data-\d{4}-\d\d-\d\d\.json"$/,
      );
      const data = res.json();
      expect(data.account).toMatchObject({ id: member.id, username: 'erase_me' });
      expect(data.discordAuthorization.scope).toContain('role_connections.write');
      expect(data.vrchatLink).toMatchObject({ vrcUserId: vrcId, vrchatName: 'Erase Me VRC' });
      expect(data.sessions.map((s: { kind: string }) => s.kind).sort()).toEqual(['sdk', 'web']);
      expect(data.guestOf).toEqual([
        expect.objectContaining({ hostUserId: owner.id, guestRoleId: guestRole }),
      ]);
      expect(data.serverPermissions).toEqual([expect.objectContaining({ permissions: ['ViewWorlds'] })]);
      expect(data.serverMemberships).toEqual([expect.objectContaining({ guildId: hangout.id })]);
      expect(data.apiKeysCreated).toEqual([expect.objectContaining({ name: 'Member key' })]);
      expect(data.apiCalls).toHaveLength(1);
      const actions = data.auditEntries.map((e: { action: string }) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['user.login', 'link.created', 'permissions.set']));

      // No secret: no session id or hash, no token hash, no encrypted OAuth token.
      const secrets = [
        session,
        sdkToken,
        'secret-token-hash-of-the-key',
        ...(
          await t.ctx.database.executeSql('select id_hash from sessions where user_id = $1', [member.id])
        ).rows.map((r) => r.id_hash as string),
        ...(
          await t.ctx.database.executeSql(
            'select access_token_enc, refresh_token_enc from discord_tokens where user_id = $1',
            [member.id],
          )
        ).rows.flatMap((r) => [r.access_token_enc as string, r.refresh_token_enc as string]),
      ];
      expect(secrets.length).toBe(7);
      for (const secret of secrets) expect(res.body).not.toContain(secret);
      expect(
        await rows(t, 'audit_log', "action = 'account.exported' and actor_id = $1", [member.id]),
      ).toHaveLength(1);
    });
  });

  describe('the export audit entry', () => {
    it('is one entry per user and day, counting the exports of that day', async () => {
      const exporter = await signInMember(t, hangout.id);
      for (let i = 0; i < 4; i++) {
        const res = await t.inject({
          method: 'GET',
          url: '/api/users/profile/export',
          session: exporter.session,
        });
        expect(res.statusCode).toBe(200);
      }
      const entries = await rows(t, 'audit_log', "action = 'account.exported' and actor_id = $1", [
        exporter.id,
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0].details).toMatchObject({ count: 4 });
    });
  });

  describe('DELETE /api/users/profile', () => {
    it('refuses without the username typed exactly, and changes nothing', async () => {
      const res = await t.inject({
        method: 'DELETE',
        url: '/api/users/profile',
        session,
        payload: { username: 'Erase_Me' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(USERNAME_MISMATCH);
      expect((await t.inject({ method: 'GET', url: '/api/user', session })).statusCode).toBe(200);
    });

    it('ends every session, takes back the roles the bot gave, and leaves the id in no table', async () => {
      const res = await t.inject({
        method: 'DELETE',
        url: '/api/users/profile',
        session,
        payload: { username: 'erase_me' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('Deleted');
      expect(res.cookies.find((c) => c.name === 'vrclink_session')?.value).toBe('');
      // Signed out at once, in the browser and in the Unity editor.
      expect((await t.inject({ method: 'GET', url: '/api/user', session })).statusCode).toBe(401);
      const bearer = await t.app.inject({
        method: 'GET',
        url: '/api/user',
        headers: { authorization: `Bearer ${sdkToken}` },
      });
      expect(bearer.statusCode).toBe(401);

      // The erasure job: roles taken back on the simulated Discord, Linked Roles cleared, rows gone.
      await waitFor(
        async () =>
          (await t.ctx.database.executeSql('select 1 from users where id = $1', [member.id])).rows.length ===
          0,
        30_000,
      );
      // The queue's finished job goes with the hourly retention purge.
      await waitFor(async () => {
        const { rows: jobs } = await t.ctx.database.executeSql(
          `select state from pgboss.job where name = 'account.erase'`,
        );
        return jobs[0]?.state === 'completed';
      });
      await closeFinishedErasures(t.ctx);
      const roles = await simulatorRoles(t, hangout.id, member.id);
      expect(roles).not.toContain(linkedRole);
      expect(roles).not.toContain(guestRole);
      expect((await connectionOf(member.id))?.metadata.linked ?? '0').toBe('0');

      // Every table of the schema: the Discord id (and the VRChat id) only where allowed.
      const holding = await tablesMentioning(member.id);
      // Which audit entries still name them, if any (an entry written after the erasure's pseudonymisation).
      const { rows: leftover } = await t.ctx.database.executeSql(
        'select action, actor_id, created_at from audit_log where target_id = $1 or actor_id = $1',
        [member.id],
      );
      expect(
        holding.filter((c) => !(c.split('.').slice(0, 2).join('.') in MAY_STILL_HOLD)),
        `audit entries left: ${JSON.stringify(leftover)}`,
      ).toEqual([]);
      expect(await tablesMentioning(vrcId)).toEqual([]);
      // The member is still in the server on Discord: that is what the mirror holds.
      expect(roles).not.toBeNull();

      // The audit entries that stay name a pseudonym, and no display name; the deletion's names nobody.
      const [deleted] = await rows(t, 'audit_log', "action = 'account.deleted'");
      expect(deleted.actor_id).toMatch(/^deleted-user-[0-9a-f]{12}$/);
      expect(deleted.target_id).toBe(deleted.actor_id);
      expect(deleted.details).toBeNull();
      const theirs = await rows(t, 'audit_log', 'actor_id = $1 or target_id = $1', [deleted.actor_id]);
      expect(theirs.map((e) => e.action)).toEqual(
        expect.arrayContaining(['user.login', 'link.created', 'permissions.set', 'account.exported']),
      );
      expect(await tablesMentioning('Erase Me VRC')).toEqual([]);
      expect(await tablesMentioning('erase_me')).toEqual(
        Object.keys(MAY_STILL_HOLD).map((table) => `${table}.username`),
      );
    });
  });
});
