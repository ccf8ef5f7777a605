import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  consentOnDiscord,
  rows,
  updateVrchatUser,
  vrchatLink,
  vrchatUser,
} from '../../../../test/factories.js';
import { linkEventsHandler } from '../../../jobs/handlers/link-events.js';
import { linkedRolesUpdateHandler } from '../../../jobs/handlers/linked-roles-update.js';
import { linksRefreshHandler } from '../../../jobs/handlers/links-refresh.js';
import { startJobWorker } from '../../../jobs/worker.js';
import { waitFor } from '../../../platforms/testing.js';
import { registerRoleConnectionMetadata, updateRoleConnection } from './linked-roles.service.js';

interface StoredConnection {
  platformName: string | null;
  platformUsername: string | null;
  metadata: Record<string, string>;
}

describe('Discord Linked Roles (against the simulated Discord)', () => {
  let t: TestApp;
  let stopWorker: () => Promise<void>;
  beforeAll(async () => {
    // Demo mode (the simulator) turns Linked Roles on by default.
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    stopWorker = await startJobWorker(t.ctx, [linkEventsHandler, linkedRolesUpdateHandler]);
  });
  afterAll(async () => {
    await stopWorker?.();
    await t?.close();
  });

  /** Signs a seeded Discord user in through Discord's consent page; answers their session. */
  async function signInWithDiscord(userId: string, env: { host: string } = { host: 'app.test' }) {
    const { authorize, stateCookie, back } = await consentOnDiscord(t, userId, { host: env.host });
    expect(authorize.searchParams.get('scope')?.split(' ')).toContain('role_connections.write');
    const callback = await t.inject({
      method: 'POST',
      url: '/api/login/callback',
      headers: env,
      cookies: { vrclink_oauth_state: stateCookie },
      payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
    });
    expect(callback.statusCode).toBe(200);
    return callback.cookies.find((c) => c.name === 'vrclink_session')?.value as string;
  }

  const tokensOf = async (userId: string) =>
    (await t.ctx.database.executeSql('select * from discord_tokens where user_id = $1', [userId])).rows;

  const connectionOf = async (userId: string) =>
    (await t.control('GET', `/discord/users/${userId}/role-connection`)).body as StoredConnection | null;

  /** Waits until the simulator's stored role connection passes the check (jobs run within seconds). */
  const connectionBecomes = (userId: string, check: (c: StoredConnection) => boolean) =>
    waitFor(async () => {
      const c = await connectionOf(userId);
      return c && check(c) ? c : null;
    }, 15_000);

  it('registers the role-connection metadata at start (and not again when unchanged)', async () => {
    const state = await t.control('GET', '/discord/state');
    expect(state.body.roleConnectionMetadata).toEqual([
      expect.objectContaining({ key: 'linked', type: 7, name: 'Linked to VRChat' }),
      expect.objectContaining({ key: 'ownership_verified', type: 7, name: 'Ownership verified' }),
      expect.objectContaining({ key: 'age_verified', type: 7, name: '18+ verified' }),
      expect.objectContaining({ key: 'linked_since', type: 5, name: 'Linked since' }),
    ]);
    expect(await registerRoleConnectionMetadata(t.ctx)).toBe('unchanged');
  });

  const updates = async (userId: string) =>
    (await rows(t, 'audit_log', "action = 'linked_roles.updated' and target_id = $1", [userId])).length;
  const unproven = { linked: '0', ownership_verified: '0', age_verified: '0' };

  it('counts only an ownership-verified link, and follows verification, age status and unlink through the user’s own OAuth token', async () => {
    const userId = '1200000000000000011';
    const session = await signInWithDiscord(userId);
    // An 18+ account anyone could claim: linking it proves nothing.
    const vrc = await vrchatUser(t, {
      displayName: 'Role Linker',
      ageVerificationStatus: '18+',
      ageVerified: true,
    });
    const post = (url: string) => t.inject({ method: 'POST', url, session });

    const before = await updates(userId);
    expect((await post(`/api/users/link?vrcId=${vrc.id}`)).statusCode).toBe(200);
    await waitFor(async () => (await updates(userId)) > before, 15_000);
    expect(await connectionOf(userId)).toEqual({
      platformName: 'VRChat',
      platformUsername: null,
      metadata: unproven,
    });

    // Ownership proven with the bio code: now every value counts.
    const check = await t.inject({ method: 'GET', url: `/api/users/check?vrcId=${vrc.id}`, session });
    await updateVrchatUser(t, vrc.id, {
      displayName: 'Role Linker 18',
      bio: `code ${check.json().verificationCode}`,
    });
    expect((await post(`/api/users/verify?vrcId=${vrc.id}`)).statusCode).toBe(200);
    const linked = await connectionBecomes(userId, (c) => c.metadata.linked === '1');
    expect(linked).toEqual({
      platformName: 'VRChat',
      platformUsername: 'Role Linker 18',
      metadata: { linked: '1', ownership_verified: '1', age_verified: '1', linked_since: expect.any(String) },
    });
    const [link] = await rows(t, 'vrchat_links', 'discord_user_id = $1', [userId]);
    expect(new Date(linked.metadata.linked_since).getTime()).toBe(
      new Date(link.linked_at as string).getTime(),
    );

    // The 18+ status is gone on VRChat: the scheduled refresh (its next round) clears the value, audit-logged.
    await updateVrchatUser(t, vrc.id, { ageVerificationStatus: 'hidden', ageVerified: false });
    await t.ctx.database.executeSql(
      `update vrchat_links set refreshed_at = now() - interval '7 hours' where discord_user_id = $1`,
      [userId],
    );
    await linksRefreshHandler.run(t.ctx, {});
    expect(await connectionBecomes(userId, (c) => c.metadata.age_verified === '0')).toMatchObject({
      metadata: { linked: '1', ownership_verified: '1' },
    });
    expect(
      await rows(
        t,
        'audit_log',
        "action = 'link.refreshed' and actor_id = 'job:links.refresh' and target_id = $1",
        [vrc.id],
      ),
    ).toHaveLength(1);

    expect((await post('/api/users/unlink')).statusCode).toBe(200);
    expect(await connectionBecomes(userId, (c) => c.metadata.linked === '0')).toEqual({
      platformName: 'VRChat',
      platformUsername: null,
      metadata: unproven,
    });
  });

  it('writes the role connection of a link made before the user signed in, at sign-in', async () => {
    const userId = '1200000000000000015';
    await vrchatLink(t, {
      discordUserId: userId,
      vrchatName: 'Early Linker',
      plus18: true,
      isVerified: true,
    });
    expect(await connectionOf(userId)).toBeNull();
    await signInWithDiscord(userId);
    expect(await connectionBecomes(userId, (c) => c.metadata.linked === '1')).toMatchObject({
      platformUsername: 'Early Linker',
      metadata: { age_verified: '1' },
    });
  });

  /**
   * Signs in and waits for the role connection the sign-in queued: that job refreshes an expired token too, and
   * ran between a test's own steps on a loaded machine (the token the test expired was already refreshed).
   */
  async function signInAndSettle(userId: string) {
    await signInWithDiscord(userId);
    await connectionBecomes(userId, () => true);
  }

  it('refreshes an expired token first, and a token Discord refuses once, then writes the connection', async () => {
    const userId = '1200000000000000012';
    await signInAndSettle(userId);
    const stored = async () => (await tokensOf(userId))[0];

    // Expired by its own clock: refreshed before the call.
    await t.ctx.database.executeSql(
      `update discord_tokens set expires_at = now() - interval '1 minute' where user_id = $1`,
      [userId],
    );
    const first = await stored();
    expect(await updateRoleConnection(t.ctx, userId)).toBe('updated');
    const second = await stored();
    expect(second.access_token_enc).not.toBe(first.access_token_enc);
    expect(new Date(second.expires_at as string).getTime()).toBeGreaterThan(Date.now());
    expect((await connectionOf(userId))?.metadata).toEqual(unproven);

    // Expired at Discord although not by our clock: refused once (401), refreshed, written.
    expect(
      (await t.control('POST', '/discord/oauth2/expire-tokens', { userId })).body.expired,
    ).toBeGreaterThan(0);
    expect(await updateRoleConnection(t.ctx, userId)).toBe('updated');
    expect((await stored()).access_token_enc).not.toBe(second.access_token_enc);
  });

  it('does nothing for a user without a stored token, and forgets a token Discord no longer refreshes', async () => {
    expect(await updateRoleConnection(t.ctx, '1200000000000000013')).toBe('no-token');
    const userId = '1200000000000000014';
    await signInAndSettle(userId);
    await t.ctx.database.executeSql(
      `update discord_tokens set expires_at = now() - interval '1 minute', refresh_token_enc = access_token_enc where user_id = $1`,
      [userId],
    );
    expect(await updateRoleConnection(t.ctx, userId)).toBe('no-token');
    expect(await tokensOf(userId)).toHaveLength(0);
  });
});
