import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { rows, updateVrchatUser, vrchatUser } from '../../../../test/factories.js';
import { groupInvites, verificationCodes } from '../../../db/schema/index.js';
import { VERIFY_FAILED, VRCHAT_USER_NOT_FOUND } from './links.service.js';

const CODE = /^VRCL-[A-HJKMNP-Z2-9]{8}$/;

describe('linking a VRChat account (against the simulators)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
  });
  afterAll(() => t?.close());

  type User = { id: string; session: string };
  const get = (user: User | undefined, url: string) =>
    t.inject({ method: 'GET', url, session: user?.session });
  const post = (user: User | undefined, url: string) =>
    t.inject({ method: 'POST', url, session: user?.session });
  /** Like a cross-site form: the session cookie goes along, the XSRF header does not. */
  const withoutXsrf = (user: User, method: 'GET' | 'POST', url: string) =>
    t.app.inject({ method, url, cookies: { vrclink_session: user.session } });

  const check = async (user: User, vrcId: string) => {
    const res = await get(user, `/api/users/check?vrcId=${vrcId}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { status: string; verificationCode: string };
  };
  const link = (user: User, vrcId: string) => post(user, `/api/users/link?vrcId=${vrcId}`);
  const verify = (user: User, vrcId: string) => post(user, `/api/users/verify?vrcId=${vrcId}`);
  const profile = async (user: User) => (await get(user, '/api/users/profile')).json();
  /** Puts this user's verification code into the VRChat bio, as the person would on vrchat.com. */
  const proveOwnership = async (user: User, vrcId: string) => {
    const { verificationCode } = await check(user, vrcId);
    await updateVrchatUser(t, vrcId, { bio: `Hi! ${verificationCode} - see you in VRChat` });
  };

  describe('every route', () => {
    const vrc = 'usr_00000000-0000-4000-8000-000000000000';
    const routes: ['GET' | 'POST', string, boolean][] = [
      ['GET', '/api/users/search?query=abc', false],
      ['GET', `/api/users/check?vrcId=${vrc}`, false],
      ['POST', `/api/users/link?vrcId=${vrc}`, true],
      ['POST', `/api/users/verify?vrcId=${vrc}`, true],
      ['GET', '/api/users/refresh', true],
      ['POST', '/api/users/unlink', true],
      ['GET', '/api/users/group/reset_invites', true],
    ];

    it.each(routes)('%s %s answers 401 when logged out', async (method, url) => {
      const res = await t.inject({ method, url });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBeTruthy();
    });

    it.each(routes.filter(([, , changes]) => changes))(
      '%s %s answers 403 without the XSRF header',
      async (method, url) => {
        const user = await signIn(t);
        const res = await withoutXsrf(user, method, url);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe('Invalid or missing XSRF token.');
      },
    );

    it.each([
      ['GET', '/api/users/search', 'query is missing.'],
      ['GET', '/api/users/search?query=%20%20', 'query must not be empty.'],
      ['GET', `/api/users/search?query=${'x'.repeat(201)}`, 'query must be at most 200 characters long.'],
      ['GET', '/api/users/check', 'vrcId is missing.'],
      ['GET', '/api/users/check?vrcId=not-an-id', 'vrcId must be a VRChat user id (usr_…).'],
      ['POST', '/api/users/link?vrcId=usr_%27%3B--', 'vrcId must be a VRChat user id (usr_…).'],
      ['POST', '/api/users/verify', 'vrcId is missing.'],
    ] as const)('%s %s answers 400 with a sentence', async (method, url, message) => {
      const user = await signIn(t);
      const res = await t.inject({ method, url, session: user.session });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  describe('GET /api/users/search', () => {
    it('finds VRChat users by display name, with their profile URL', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t, { displayName: 'Zephyrine Quartzwell' });
      const res = await get(user, '/api/users/search?query=zephyrine%20quartz');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        {
          id: target.id,
          displayName: 'Zephyrine Quartzwell',
          profileUrl: `${t.simulatorUrl}/home/user/${target.id}`,
          thumbnailUrl: expect.stringMatching(/^http/),
        },
      ]);
    });

    it('gives each result its VRChat thumbnail, from a host the page may load images from', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t, { displayName: 'Thumbnail Thessaly' });
      const res = await get(user, '/api/users/search?query=thumbnail%20thessaly');
      const [found] = res.json() as { thumbnailUrl: string | null }[];
      const thumbnail = found.thumbnailUrl ?? '';
      expect(thumbnail).toContain(target.id);
      // The simulator serves the image, and the Content-Security-Policy's img-src names its origin.
      expect((await fetch(thumbnail)).status).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      const imgSrc = csp.split(';').find((d) => d.trim().startsWith('img-src')) ?? '';
      expect(imgSrc.split(' ')).toContain(new URL(thumbnail).origin);
      // By id too (the detail answer).
      const byId = (await get(user, `/api/users/search?query=${target.id}`)).json();
      expect(byId[0].thumbnailUrl).toContain(target.id);
    });

    it('finds a VRChat user by usr_ id and by pasted profile URL', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      const expected = [expect.objectContaining({ id: target.id, displayName: target.displayName })];
      expect((await get(user, `/api/users/search?query=${target.id}`)).json()).toEqual(expected);
      const url = encodeURIComponent(`https://vrchat.com/home/user/${target.id}`);
      expect((await get(user, `/api/users/search?query=${url}`)).json()).toEqual(expected);
    });

    it('answers an empty list for an id VRChat does not know', async () => {
      const user = await signIn(t);
      const res = await get(user, '/api/users/search?query=usr_00000000-0000-4000-8000-00000000dead');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('answers 503 with a message (not 500) while VRChat fails', async () => {
      const user = await signIn(t);
      await t.control('POST', '/faults', { platform: 'vrchat', kind: 'server_error' });
      try {
        const res = await get(user, '/api/users/search?query=anyone');
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe('VRChat is not reachable right now. Try again later.');
      } finally {
        await t.control('DELETE', '/faults');
      }
    });
  });

  describe('GET /api/users/check', () => {
    it('answers Success and a VRCL- code that stays the same until it is used', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      const first = await check(user, target.id);
      expect(first.status).toBe('Success');
      expect(first.verificationCode).toMatch(CODE);
      expect((await check(user, target.id)).verificationCode).toBe(first.verificationCode);

      // Another Discord user gets a code of their own for the same account.
      const other = await signIn(t);
      expect((await check(other, target.id)).verificationCode).not.toBe(first.verificationCode);

      // Verifying uses the code up; the next check hands out a new one.
      await updateVrchatUser(t, target.id, { bio: first.verificationCode });
      expect((await link(user, target.id)).json().status).toBe('SuccessVerified');
      const next = await check(user, target.id);
      expect(next.verificationCode).toMatch(CODE);
      expect(next.verificationCode).not.toBe(first.verificationCode);
    });

    it('answers Conflict when the VRChat account is linked to another Discord user', async () => {
      const [holder, user] = [await signIn(t), await signIn(t)];
      const target = await vrchatUser(t);
      expect((await link(holder, target.id)).statusCode).toBe(200);
      expect((await check(user, target.id)).status).toBe('Conflict');
      expect((await check(holder, target.id)).status).toBe('Success');
    });

    it('answers 404 for a VRChat user that does not exist, and hands out no code', async () => {
      const user = await signIn(t);
      const unknown = 'usr_0c4b5e2a-9d1f-4e7b-8a63-2f5d9c1b7e40';
      const res = await get(user, `/api/users/check?vrcId=${unknown}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: VRCHAT_USER_NOT_FOUND });
      const codes = await t.ctx.db
        .select()
        .from(verificationCodes)
        .where(eq(verificationCodes.vrcUserId, unknown));
      expect(codes).toEqual([]);
    });
  });

  describe('POST /api/users/link', () => {
    it('answers Success and links the account unverified when the code is not in the bio', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t, { displayName: `Linker ${Date.now()}` });
      const res = await link(user, target.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'Success' });
      expect((await profile(user)).linkData).toEqual({
        id: target.id,
        vrchatName: target.displayName,
        isVerified: false,
        ageVerification: 'Unverified',
      });
      const events = await rows(t, 'link_events', 'discord_user_id = $1', [user.id]);
      expect(events.map((e) => e.kind)).toEqual(['linked']);
      const audits = await rows(t, 'audit_log', 'actor_id = $1', [user.id]);
      expect(audits.map((a) => a.action)).toEqual(['link.created']);
    });

    it('answers SuccessVerified when the code is already in the bio', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      await proveOwnership(user, target.id);
      const res = await link(user, target.id);
      expect(res.json()).toEqual({ status: 'SuccessVerified' });
      expect((await profile(user)).linkData.isVerified).toBe(true);
    });

    it('answers SuccessVerified when relinking an account this user already verified', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      await link(user, target.id);
      await proveOwnership(user, target.id);
      expect((await verify(user, target.id)).json()).toEqual({ status: 'SuccessVerified' });
      // The code was used up; the dialog's Confirm after verifying links again and must stay verified.
      expect((await link(user, target.id)).json()).toEqual({ status: 'SuccessVerified' });
      expect((await profile(user)).linkData.isVerified).toBe(true);
    });

    it('answers Conflict when the account is linked to someone else and there is no proof', async () => {
      const [holder, user] = [await signIn(t), await signIn(t)];
      const target = await vrchatUser(t);
      await link(holder, target.id);
      const res = await link(user, target.id);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/linked to another Discord account/);
      expect((await profile(holder)).linkData.id).toBe(target.id);
      expect((await profile(user)).linkData).toBeNull();
    });

    it('lets exactly one of two simultaneous requests link the same account', async () => {
      const [a, b] = [await signIn(t), await signIn(t)];
      const target = await vrchatUser(t);
      const answers = await Promise.all([link(a, target.id), link(b, target.id)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await rows(t, 'vrchat_links', 'vrc_user_id = $1', [target.id])).toHaveLength(1);
    });

    it('replaces the previous link of the same Discord user', async () => {
      const user = await signIn(t);
      const [first, second] = [await vrchatUser(t), await vrchatUser(t)];
      await link(user, first.id);
      await link(user, second.id);
      expect((await profile(user)).linkData.id).toBe(second.id);
      expect(await rows(t, 'vrchat_links', 'vrc_user_id = $1', [first.id])).toHaveLength(0);
      const events = await rows(t, 'link_events', 'discord_user_id = $1', [user.id]);
      expect(events.map((e) => [e.kind, e.vrc_user_id])).toEqual([
        ['linked', first.id],
        ['unlinked', first.id],
        ['linked', second.id],
      ]);
    });

    it('answers 404 for a VRChat user that does not exist', async () => {
      const user = await signIn(t);
      const res = await link(user, 'usr_00000000-0000-4000-8000-00000000dead');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('VRChat user not found.');
    });
  });

  describe('POST /api/users/verify', () => {
    it('answers the spec’s failure text when the code is not in the bio', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t, { bio: 'nothing to see here' });
      await check(user, target.id);
      await link(user, target.id);
      const res = await verify(user, target.id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: VERIFY_FAILED });
      expect(res.json().message).toBe(
        'Failed to verify account. Make sure you have the verification code in your bio.',
      );
      expect((await profile(user)).linkData.isVerified).toBe(false);
    });

    it('answers the failure text when no code was ever handed out', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      const res = await verify(user, target.id);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(VERIFY_FAILED);
    });

    it('marks the link verified once the code is in the bio, with a link event and an audit entry', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      await check(user, target.id);
      await link(user, target.id);
      await proveOwnership(user, target.id);
      const res = await verify(user, target.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'SuccessVerified' });
      expect((await profile(user)).linkData).toMatchObject({ id: target.id, isVerified: true });
      const events = await rows(t, 'link_events', 'discord_user_id = $1', [user.id]);
      expect(events.map((e) => e.kind)).toEqual(['linked', 'verified']);
      const audits = await rows(t, 'audit_log', 'actor_id = $1', [user.id]);
      expect(audits.map((a) => a.action)).toEqual(['link.created', 'link.verified']);
    });

    it('moves a conflicting link to the user who proves ownership', async () => {
      const [holder, user] = [await signIn(t), await signIn(t)];
      const target = await vrchatUser(t);
      await link(holder, target.id);
      expect((await check(user, target.id)).status).toBe('Conflict');
      await proveOwnership(user, target.id);

      const res = await verify(user, target.id);
      expect(res.json()).toEqual({ status: 'SuccessVerified' });
      expect((await profile(user)).linkData).toMatchObject({ id: target.id, isVerified: true });
      expect((await profile(holder)).linkData).toBeNull();
      expect(await rows(t, 'vrchat_links', 'vrc_user_id = $1', [target.id])).toEqual([
        expect.objectContaining({ discord_user_id: user.id }),
      ]);

      const holderEvents = await rows(t, 'link_events', 'discord_user_id = $1', [holder.id]);
      expect(holderEvents.map((e) => e.kind)).toEqual(['linked', 'moved_away']);
      const audits = await rows(t, 'audit_log', 'actor_id = $1', [user.id]);
      expect(audits.map((a) => [a.action, a.target_id])).toEqual([
        ['link.moved_away', holder.id],
        ['link.verified', target.id],
      ]);
    });
  });

  describe('age verification', () => {
    it.each([
      ['18+', true, 'Plus18'],
      ['verified', true, 'Verified'],
      ['hidden', false, 'Unverified'],
    ] as const)(
      'reads VRChat %s as %s at link time',
      async (ageVerificationStatus, ageVerified, expected) => {
        const user = await signIn(t);
        const target = await vrchatUser(t, { ageVerificationStatus, ageVerified });
        await link(user, target.id);
        expect((await profile(user)).linkData.ageVerification).toBe(expected);
      },
    );
  });

  describe('GET /api/users/refresh', () => {
    it('re-reads the VRChat name and age after they changed', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t, { displayName: 'Before Rename' });
      await link(user, target.id);
      await updateVrchatUser(t, target.id, {
        displayName: 'After Rename',
        ageVerificationStatus: '18+',
        ageVerified: true,
      });
      const res = await get(user, '/api/users/refresh');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'Success' });
      expect((await profile(user)).linkData).toMatchObject({
        vrchatName: 'After Rename',
        ageVerification: 'Plus18',
      });
      const events = await rows(t, 'link_events', 'discord_user_id = $1', [user.id]);
      expect(events.map((e) => e.kind)).toEqual(['linked', 'refreshed']);
    });

    it('answers 404 with a message when nothing is linked', async () => {
      const user = await signIn(t);
      const res = await get(user, '/api/users/refresh');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No VRChat account is linked to your Discord account.');
    });
  });

  describe('POST /api/users/unlink', () => {
    it('removes the link, with a link event and an audit entry', async () => {
      const user = await signIn(t);
      const target = await vrchatUser(t);
      await link(user, target.id);
      const res = await post(user, '/api/users/unlink');
      expect(res.statusCode).toBe(200);
      expect((await profile(user)).linkData).toBeNull();
      const events = await rows(t, 'link_events', 'discord_user_id = $1', [user.id]);
      expect(events.map((e) => e.kind)).toEqual(['linked', 'unlinked']);
      const audits = await rows(t, 'audit_log', 'actor_id = $1', [user.id]);
      expect(audits.map((a) => a.action)).toEqual(['link.created', 'link.removed']);
      // The account is free again for anyone.
      expect((await check(await signIn(t), target.id)).status).toBe('Success');
    });

    it('answers 404 with a message when nothing is linked', async () => {
      const res = await post(await signIn(t), '/api/users/unlink');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No VRChat account is linked to your Discord account.');
    });
  });

  describe('GET /api/users/group/reset_invites', () => {
    it('forgets the group invites sent to the user', async () => {
      const [user, other] = [await signIn(t), await signIn(t)];
      const target = await vrchatUser(t);
      await link(user, target.id);
      await t.ctx.db.insert(groupInvites).values([
        { discordUserId: user.id, groupId: 'grp_a', vrcUserId: target.id },
        { discordUserId: user.id, groupId: 'grp_b', vrcUserId: target.id },
        { discordUserId: other.id, groupId: 'grp_a', vrcUserId: 'usr_other' },
      ]);
      const res = await get(user, '/api/users/group/reset_invites');
      expect(res.statusCode).toBe(200);
      expect(await rows(t, 'group_invites', 'discord_user_id = $1', [user.id])).toEqual([]);
      expect(await rows(t, 'group_invites', 'discord_user_id = $1', [other.id])).toHaveLength(1);
      const events = await rows(t, 'link_events', 'discord_user_id = $1', [user.id]);
      expect(events.map((e) => e.kind)).toEqual(['linked', 'invites_reset']);
    });

    it('answers 404 with a message when nothing is linked', async () => {
      const res = await get(await signIn(t), '/api/users/group/reset_invites');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('No VRChat account is linked to your Discord account.');
    });
  });
});
