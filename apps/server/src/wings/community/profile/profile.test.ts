import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import {
  guestRoleEntry,
  guildGroup,
  hostAndGuestRoles,
  signInMember,
  vrchatUser,
} from '../../../../test/factories.js';
import { waitFor } from '../../../platforms/testing.js';

const { hangout, danceClub, quietCorner } = seedGuildIds;

describe('GET /api/users/profile (against the simulators)', () => {
  let t: TestApp;
  let mainRole: string;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    mainRole = (await hostAndGuestRoles(t, hangout.id, 2, ['Host', 'Guest'])).host;
    // Dance Club has an entry too, for a role our users do not hold.
    await guestRoleEntry(t, {
      guildId: danceClub.id,
      mainRoleId: danceClub.roles.DJ,
      guestRoleId: danceClub.roles.Dancer,
      count: 1,
    });
    await guildGroup(t, { guildId: hangout.id, groupId: 'grp_hangout', name: 'Hangout Group' });
    await guildGroup(t, {
      guildId: hangout.id,
      groupId: 'grp_events',
      name: 'Events',
      iconUrl: 'https://i/e.png',
    });
    await guildGroup(t, { guildId: danceClub.id, groupId: 'grp_dance', name: 'Dance Group' });
    await guildGroup(t, { guildId: quietCorner.id, groupId: 'grp_quiet', name: 'Quiet Group' });
  });
  afterAll(() => t?.close());

  const profile = async (user: { session: string }) => {
    const res = await t.inject({ method: 'GET', url: '/api/users/profile', session: user.session });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('answers 401 when logged out', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/users/profile' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });

  it('shows a user in no server with no link', async () => {
    const user = await signIn(t, { username: 'loner' });
    expect(await profile(user)).toEqual({
      user: { id: user.id, username: 'loner', avatar: null },
      linkData: null,
      guilds: [],
      groups: [],
    });
  });

  it('lists only servers where both the user and the bot are, with those servers’ groups', async () => {
    // A member of the Hangout (bot present) and of Quiet Corner (no bot), not of the Dance Club.
    const user = await signInMember(t, hangout.id, { username: 'hangout_only' });
    await t.control('POST', `/discord/guilds/${quietCorner.id}/members`, { userId: user.id });
    const body = await profile(user);
    expect(body.user).toEqual({ id: user.id, username: 'hangout_only', avatar: null });
    expect(body.guilds).toEqual([
      {
        id: hangout.id,
        name: 'VRChat Hangout',
        icon: expect.stringMatching(/\/cdn\/icons\/1300000000000000001\/[0-9a-f]{32}\.png/),
        canSetupGuests: false,
      },
    ]);
    // The icon address points at the (simulated) Discord CDN and serves a picture.
    const icon = await fetch(body.guilds[0].icon);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(body.groups).toEqual([
      { id: 'grp_hangout', name: 'Hangout Group', icon: null },
      { id: 'grp_events', name: 'Events', icon: 'https://i/e.png' },
    ]);
  });

  it('sets canSetupGuests only where the user holds a guest-role entry’s main role', async () => {
    const user = await signInMember(t, hangout.id, { roles: [mainRole] });
    await t.control('POST', `/discord/guilds/${danceClub.id}/members`, { userId: user.id });
    await waitFor(() => t.ctx.discord.getMember(danceClub.id, user.id));
    const guilds = (await profile(user)).guilds as { id: string; canSetupGuests: boolean }[];
    expect(Object.fromEntries(guilds.map((g) => [g.id, g.canSetupGuests]))).toEqual({
      [hangout.id]: true,
      [danceClub.id]: false,
    });
    expect((await profile(user)).groups.map((g: { id: string }) => g.id).sort()).toEqual(
      ['grp_dance', 'grp_events', 'grp_hangout'].sort(),
    );

    // Losing the role in Discord turns it off.
    await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${user.id}/roles/${mainRole}`);
    await waitFor(
      async () => !(await t.ctx.discord.getMember(hangout.id, user.id))?.roles.includes(mainRole),
    );
    const after = (await profile(user)).guilds.find((g: { id: string }) => g.id === hangout.id);
    expect(after.canSetupGuests).toBe(false);
  });

  it('shows the linked VRChat account', async () => {
    const user = await signIn(t);
    const target = await vrchatUser(t, {
      displayName: 'Profile Person',
      ageVerificationStatus: '18+',
      ageVerified: true,
    });
    await t.inject({ method: 'POST', url: `/api/users/link?vrcId=${target.id}`, session: user.session });
    expect((await profile(user)).linkData).toEqual({
      id: target.id,
      vrchatName: 'Profile Person',
      isVerified: false,
      ageVerification: 'Plus18',
    });
  });

  it('answers 503 with a message while the platforms are not started', async () => {
    const offline = await createTestApp();
    try {
      const user = await signIn(offline);
      const res = await offline.inject({ method: 'GET', url: '/api/users/profile', session: user.session });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('Discord is not reachable right now. Try again later.');
    } finally {
      await offline.close();
    }
  });
});
