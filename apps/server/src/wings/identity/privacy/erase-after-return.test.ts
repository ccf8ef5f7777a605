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
  signInWithDiscord as signInThroughDiscord,
  simulatorRoles,
  updateVrchatUser,
  vrchatUser,
} from '../../../../test/factories.js';
import { accountEraseHandler } from '../../../jobs/handlers/account-erase.js';
import { linkEventsHandler } from '../../../jobs/handlers/link-events.js';
import { linkedRolesUpdateHandler } from '../../../jobs/handlers/linked-roles-update.js';
import { startJobWorker } from '../../../jobs/worker.js';
import { waitFor } from '../../../platforms/testing.js';
import { runGuildSync } from '../../group-sync/index.js';

const { hangout } = seedGuildIds;

/**
 * A person deletes their account and signs in again before the erasure job runs: the erasure acts only on
 * what existed at the deletion request. The new account keeps its session and its new rows and activity;
 * the old verified link is gone at once, so the bot gives nothing back because of it.
 */
describe('account erasure after the person signed in again (against the simulators)', () => {
  let t: TestApp;
  let stopWorker: (() => Promise<void>) | undefined;
  let owner: { id: string; session: string };
  let linkedRole: string;

  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    // The erasure job's handler is not running yet: the person comes back first.
    stopWorker = await startJobWorker(t.ctx, [linkEventsHandler, linkedRolesUpdateHandler]);
    owner = await signInHangoutOwner(t);
    linkedRole = await discordRole(t, hangout.id, 'Linked');
    const saved = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}`,
      session: owner.session,
      payload: { autoAssignRoles: { linkedRoleId: linkedRole } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await stopWorker?.();
    await t?.close();
  });

  const signInWithDiscord = (userId: string) => signInThroughDiscord(t, userId);
  const connectionOf = (userId: string) => roleConnectionOf(t, userId);
  const as = (session: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.inject({ method, url, session, payload });

  it('keeps the new account whole and acts no more on the old link', async () => {
    const member = await discordMember(t, hangout.id, { username: 'comes_back' });
    const oldSession = await signInWithDiscord(member.id);
    const oldVrc = await vrchatUser(t, { displayName: 'Old Account VRC' });
    const check = await as(oldSession, 'GET', `/api/users/check?vrcId=${oldVrc.id}`);
    await updateVrchatUser(t, oldVrc.id, { bio: `code ${check.json().verificationCode}` });
    expect((await as(oldSession, 'POST', `/api/users/verify?vrcId=${oldVrc.id}`)).statusCode).toBe(200);
    await runGuildSync(t.ctx, hangout.id);
    await botSeesRoles(t, hangout.id, member.id, (r) => r.includes(linkedRole));
    await waitFor(async () => (await connectionOf(member.id))?.metadata.linked === '1', 15_000);

    const deleted = await as(oldSession, 'DELETE', '/api/users/profile', { username: 'comes_back' });
    expect(deleted.statusCode, deleted.body).toBe(200);

    // Signed in again before the erasure ran: a new account, with no link.
    const newSession = await signInWithDiscord(member.id);
    const profile = await as(newSession, 'GET', '/api/users/profile');
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().linkData).toBeNull();
    // New activity: a verification code for another account, and a data export.
    const newVrc = await vrchatUser(t, { displayName: 'New Account VRC' });
    expect((await as(newSession, 'GET', `/api/users/check?vrcId=${newVrc.id}`)).statusCode).toBe(200);
    expect((await as(newSession, 'GET', '/api/users/profile/export')).statusCode).toBe(200);
    // The bot, syncing now, does not give the Linked role back because of the old link.
    await runGuildSync(t.ctx, hangout.id);
    await botSeesRoles(t, hangout.id, member.id, (r) => !r.includes(linkedRole));

    // Now the erasure job runs.
    await stopWorker?.();
    stopWorker = await startJobWorker(t.ctx, [
      linkEventsHandler,
      linkedRolesUpdateHandler,
      accountEraseHandler,
    ]);
    await waitFor(async () => {
      const { rows: jobs } = await t.ctx.database.executeSql(
        `select state from pgboss.job where name = 'account.erase'`,
      );
      return jobs[0]?.state === 'completed';
    }, 30_000);

    // The new session still works; the user record, code and new activity are theirs, not a pseudonym's.
    const me = await as(newSession, 'GET', '/api/user');
    expect(me.statusCode, me.body).toBe(200);
    expect(await rows(t, 'users', 'id = $1', [member.id])).toHaveLength(1);
    expect(await rows(t, 'verification_codes', 'discord_user_id = $1', [member.id])).toEqual([
      expect.objectContaining({ vrc_user_id: newVrc.id }),
    ]);
    const mine = (await rows(t, 'audit_log', 'actor_id = $1', [member.id])).map((e) => e.action);
    expect(mine).toEqual(expect.arrayContaining(['user.login', 'account.exported']));
    expect(mine).not.toContain('link.verified');

    // The old account's activity is pseudonymised; its link is gone and the bot no longer acts on it.
    const [deletion] = await rows(t, 'audit_log', "action = 'account.deleted'");
    const old = (await rows(t, 'audit_log', 'actor_id = $1', [deletion.actor_id])).map((e) => e.action);
    expect(old).toEqual(expect.arrayContaining(['user.login', 'link.verified']));
    expect(
      await rows(t, 'vrchat_links', 'discord_user_id = $1 or vrc_user_id = $2', [member.id, oldVrc.id]),
    ).toEqual([]);
    expect(await simulatorRoles(t, hangout.id, member.id)).not.toContain(linkedRole);
    await waitFor(async () => ((await connectionOf(member.id))?.metadata.linked ?? '0') === '0', 15_000);
  });
});
