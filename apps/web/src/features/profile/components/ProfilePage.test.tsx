import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, demoConfig, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import type { Profile } from '../api/profile';
import { profileFixture, profilePageAnswers } from '../testing/profileFixtures';

function stubProfile(profile: Profile, extra: Answers = {}) {
  const answers: Answers = {
    ...profilePageAnswers(profile),
    ...extra,
  };
  return { answers, fetchMock: stubApi(answers) };
}

const badges = () =>
  within(screen.getByRole('list', { name: 'Verification status' }))
    .getAllByRole('listitem')
    .map((badge) => badge.textContent);

describe('profile page header', () => {
  it('shows the username and the verified ownership and 18+ badges', async () => {
    stubProfile(profileFixture());
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'neon' })).toBeTruthy();
    expect(badges()).toEqual(['Ownership-Verified', '18+ Verified']);
  });

  it('shows the not-verified badges for an unverified link', async () => {
    stubProfile(
      profileFixture({
        linkData: { id: 'usr_abc', vrchatName: 'NeonVR', isVerified: false, ageVerification: 'Unverified' },
      }),
    );
    renderApp('/profile');
    await screen.findByRole('heading', { name: 'neon' });
    expect(badges()).toEqual(['Ownership-Not-Verified', 'Age Not-Verified']);
  });

  it("never shows an unverified link as 18+: the account may be a stranger's", async () => {
    stubProfile(
      profileFixture({
        linkData: { id: 'usr_abc', vrchatName: 'NeonVR', isVerified: false, ageVerification: 'Plus18' },
      }),
    );
    renderApp('/profile');
    await screen.findByRole('heading', { name: 'neon' });
    expect(badges()).toEqual(['Ownership-Not-Verified', 'Age Not-Verified']);
  });

  it('offers Verify Account for a linked, unverified account: the dialog opens on its code, not the search', async () => {
    const { fetchMock } = stubProfile(
      profileFixture({
        linkData: { id: 'usr_abc', vrchatName: 'NeonVR', isVerified: false, ageVerification: 'Unverified' },
      }),
      { 'GET /api/users/check': { body: { status: 'Success', verificationCode: 'VRCL-RESUME22' } } },
    );
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Verify Account' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Verify Your Account' }));
    expect(await dialog.findByText('VRCL-RESUME22')).toBeTruthy();
    expect(dialog.queryByLabelText('VRChat account')).toBeNull();
    expect(new URL(callsTo(fetchMock, 'GET', '/api/users/check')[0].url).searchParams.get('vrcId')).toBe(
      'usr_abc',
    );
  });

  it('offers no Verify Account once the link is verified', async () => {
    stubProfile(profileFixture());
    renderApp('/profile');
    await screen.findByRole('heading', { name: 'neon' });
    expect(screen.getByRole('button', { name: 'Link Account' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify Account' })).toBeNull();
  });

  it('shows Age Verified when VRChat reports an age verification other than 18+', async () => {
    stubProfile(
      profileFixture({
        linkData: { id: 'usr_abc', vrchatName: 'NeonVR', isVerified: true, ageVerification: 'Verified' },
      }),
    );
    renderApp('/profile');
    await screen.findByRole('heading', { name: 'neon' });
    expect(badges()).toEqual(['Ownership-Verified', 'Age Verified']);
  });

  it('without a link shows no badges, N/A for the VRChat details and only Link Account', async () => {
    stubProfile(profileFixture({ linkData: null }));
    renderApp('/profile');
    await screen.findByRole('heading', { name: 'neon' });
    expect(screen.queryByRole('list', { name: 'Verification status' })).toBeNull();
    expect(screen.getByText('No VRChat account linked yet.')).toBeTruthy();
    const details = within(screen.getByRole('region', { name: 'User Details' }));
    expect(details.getByText('42')).toBeTruthy();
    expect(details.getAllByText('N/A')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Link Account' })).toBeTruthy();
    for (const name of ['Refresh Link', 'Unlink Account', 'Reset Group Invites']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });

  it('shows the linked VRChat details', async () => {
    stubProfile(profileFixture());
    renderApp('/profile');
    const details = within(await screen.findByRole('region', { name: 'User Details' }));
    expect(details.getByText('usr_abc')).toBeTruthy();
    expect(details.getByText('NeonVR')).toBeTruthy();
    expect(details.queryByText('N/A')).toBeNull();
  });
});

describe('profile servers and groups', () => {
  it('lists servers with View Server links and Setup Guests only where allowed', async () => {
    stubProfile(profileFixture());
    renderApp('/profile');
    const servers = within(await screen.findByRole('region', { name: 'Discord Servers' }));
    expect(servers.getByLabelText('2 Discord Servers').textContent).toBe('2');
    const lounge = within(servers.getByRole('listitem', { name: 'Neon Lounge' }));
    await waitFor(() =>
      expect(lounge.getByRole('link', { name: 'View Server' }).getAttribute('href')).toBe(
        `${demoConfig.discordWebUrl}/channels/900`,
      ),
    );
    expect(lounge.getByRole('button', { name: 'Setup Guests' })).toBeTruthy();
    const cafe = within(servers.getByRole('listitem', { name: 'Quiet Cafe' }));
    expect(cafe.queryByRole('button', { name: 'Setup Guests' })).toBeNull();
  });

  it('lists groups with View Group links', async () => {
    stubProfile(profileFixture());
    renderApp('/profile');
    const groups = within(await screen.findByRole('region', { name: 'VRChat Groups' }));
    expect(groups.getByLabelText('1 VRChat Groups').textContent).toBe('1');
    await waitFor(() =>
      expect(groups.getByRole('link', { name: 'View Group' }).getAttribute('href')).toBe(
        `${demoConfig.vrchatWebUrl}/home/group/grp_1`,
      ),
    );
  });

  it('shows empty states without servers or groups', async () => {
    stubProfile(profileFixture({ guilds: [], groups: [] }));
    renderApp('/profile');
    expect(await screen.findByText('You are not in any server that uses the bot yet.')).toBeTruthy();
    expect(screen.getByText('None of your servers has a VRChat group yet.')).toBeTruthy();
  });

  it('shows an error with a retry when the profile cannot be loaded', async () => {
    const { answers } = stubProfile(profileFixture(), {
      'GET /api/users/profile': { status: 503, body: { message: 'VRChat is unavailable.' } },
    });
    renderApp('/profile');
    expect(await screen.findByText('Failed to load the profile.', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('VRChat is unavailable.')).toBeTruthy();
    answers['GET /api/users/profile'] = { body: profileFixture() };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'neon' })).toBeTruthy();
  });
});

describe('profile actions', () => {
  it('asks before unlinking and does nothing on Cancel', async () => {
    const { fetchMock } = stubProfile(profileFixture());
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Account' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'POST', '/api/users/unlink')).toHaveLength(0);
  });

  it('shows the error toast when unlinking fails, and re-fetches the profile', async () => {
    const { fetchMock } = stubProfile(profileFixture(), {
      'POST /api/users/unlink': { status: 500, body: { message: 'boom' } },
    });
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Account' });
    expect(callsTo(fetchMock, 'POST', '/api/users/unlink')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(toastTexts()).toContain('An error occurred while unlinking the account. boom'),
    );
    expect(callsTo(fetchMock, 'POST', '/api/users/unlink')).toHaveLength(1);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/users/profile')).toHaveLength(2));
  });

  it('unlinks after confirmation and shows the profile without the link', async () => {
    const { answers } = stubProfile(profileFixture(), {
      'POST /api/users/unlink': { body: { status: 'Success' } },
    });
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink Account' }));
    answers['GET /api/users/profile'] = { body: profileFixture({ linkData: null }) };
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('No VRChat account linked yet.')).toBeTruthy();
    expect(toastTexts()).toContain('Account unlinked.');
    expect(screen.queryByRole('button', { name: 'Unlink Account' })).toBeNull();
  });

  it.each([
    ['Refresh Link', 'GET /api/users/refresh', 'An error occurred while refreshing the link.'],
    [
      'Reset Group Invites',
      'GET /api/users/group/reset_invites',
      'An error occurred while resetting group invites.',
    ],
  ])('%s asks first, then shows its error toast on failure', async (label, route, message) => {
    const { fetchMock } = stubProfile(profileFixture(), { [route]: { status: 500, body: {} } });
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: label }));
    const dialog = await screen.findByRole('dialog', { name: label });
    const [method, path] = route.split(' ');
    expect(callsTo(fetchMock, method, path)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(toastTexts()).toContain(message));
    expect(callsTo(fetchMock, method, path)).toHaveLength(1);
  });

  it('refreshes the link and re-fetches the profile', async () => {
    const { fetchMock, answers } = stubProfile(profileFixture(), {
      'GET /api/users/refresh': { body: { status: 'Success' } },
    });
    renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh Link' }));
    answers['GET /api/users/profile'] = {
      body: profileFixture({
        linkData: { id: 'usr_abc', vrchatName: 'NeonRenamed', isVerified: true, ageVerification: 'Plus18' },
      }),
    };
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('NeonRenamed')).toBeTruthy();
    expect(toastTexts()).toContain('Link refreshed.');
    expect(callsTo(fetchMock, 'GET', '/api/users/profile')).toHaveLength(2);
  });
});
