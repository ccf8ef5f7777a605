import type { Profile } from '../api/profile';

/** A logged-in user's profile; override parts per test. */
export function profileFixture(overrides: Partial<Profile> = {}): Profile {
  return {
    user: { id: '42', username: 'neon', avatar: null },
    linkData: { id: 'usr_abc', vrchatName: 'NeonVR', isVerified: true, ageVerification: 'Plus18' },
    guilds: [
      { id: '900', name: 'Neon Lounge', icon: null, canSetupGuests: true },
      { id: '901', name: 'Quiet Cafe', icon: null, canSetupGuests: false },
    ],
    groups: [{ id: 'grp_1', name: 'Neon Group', icon: null }],
    ...overrides,
  };
}

/** The requests the mocked fetch received for `METHOD /path`. */
export function callsTo(
  fetchMock: { mock: { calls: [Request][] } },
  method: string,
  path: string,
): Request[] {
  return fetchMock.mock.calls
    .map(([request]) => request)
    .filter((request) => request.method === method && new URL(request.url).pathname === path);
}
