import { type Answers, demoConfig, loggedInAs } from '../../../testing/renderApp';
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

/** What the profile page loads: the signed-in user, the public config and this profile. */
export function profilePageAnswers(profile: Profile = profileFixture()): Answers {
  return {
    ...loggedInAs('User'),
    'GET /api/config': { body: demoConfig },
    'GET /api/users/profile': { body: profile },
  };
}
