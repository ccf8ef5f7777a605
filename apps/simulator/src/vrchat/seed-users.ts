import { vrchatBot, vrchatBotAccount } from '../demo.js';
import { stableId } from './ids.js';
import type { AgeVerificationStatus, UserState, UserStatus, VrchatState } from './state.js';

/** The seeded people and login accounts. Ids are hashes of display names, so they never change. */

type Trust = 'new' | 'user' | 'known' | 'trusted';
const trustTags: Record<Trust, string[]> = {
  new: ['system_trust_basic'],
  user: ['system_trust_basic', 'system_trust_known'],
  known: ['system_trust_basic', 'system_trust_known', 'system_trust_trusted'],
  trusted: ['system_trust_basic', 'system_trust_known', 'system_trust_trusted', 'system_trust_veteran'],
};

interface Extra {
  /** Verified, but showing 'hidden' (ageVerified true while the status says nothing). */
  verifiedButHidden?: boolean;
  pronouns?: string;
  statusDescription?: string;
  platform?: string;
  links?: string[];
  pic?: boolean;
}
type Row = [string, AgeVerificationStatus, Trust, UserState, UserStatus, string, string, Extra?];

// name, age status, trust, state, status, date joined, bio, extras
const people: Row[] = [
  [
    'Aurora Skye',
    '18+',
    'trusted',
    'active',
    'join me',
    '2018-02-11',
    'Founder of VRC Hangout. Say hi!',
    {
      pronouns: 'she/her',
      statusDescription: 'Hosting tonight!',
      links: ['https://example.org/aurora'],
      pic: true,
    },
  ],
  [
    'Bastian',
    'hidden',
    'trusted',
    'active',
    'active',
    '2019-06-30',
    'Moderator at the Hangout. DM me with questions.',
    { pronouns: 'he/him' },
  ],
  [
    'Cinder Fox',
    '18+',
    'known',
    'offline',
    'offline',
    '2019-11-02',
    'Dance Club owner. 🦊',
    { pronouns: 'they/them', pic: true },
  ],
  [
    'Dusk Walker',
    'hidden',
    'user',
    'offline',
    'busy',
    '2020-01-15',
    '',
    { statusDescription: 'Working', platform: 'android' },
  ],
  ['Echo Lumen', '18+', 'known', 'active', 'active', '2020-03-21', 'Photographer. Worlds, light and sound.'],
  ['Fennec Byte', 'hidden', 'known', 'online', 'ask me', '2020-05-09', 'Dance instructor on Thursdays.'],
  ['Glimmer', '18+', 'trusted', 'active', 'join me', '2020-07-04', 'Event host ✨', { pic: true }],
  [
    'Hollow Pine',
    'hidden',
    'user',
    'offline',
    'offline',
    '2020-09-12',
    'Verified, but I keep it private.',
    { verifiedButHidden: true },
  ],
  ['Iris Nova', '18+', 'known', 'offline', 'active', '2021-01-01', 'Stargazer.', { pronouns: 'she/her' }],
  [
    'Jasper Vale',
    'hidden',
    'new',
    'offline',
    'offline',
    '2024-12-24',
    'New here, be nice :)',
    { platform: 'android' },
  ],
  ['Kitsune Kai', '18+', 'known', 'active', 'active', '2021-04-18', 'Fox enjoyer.'],
  ['Lumi', 'hidden', 'user', 'offline', 'offline', '2021-06-06', ''],
  ['Moth Queen', '18+', 'trusted', 'offline', 'busy', '2021-08-08', 'Drawn to the light.'],
  ['Nyx Ember', 'hidden', 'user', 'offline', 'offline', '2021-10-31', 'Night owl.'],
  ['Orion Drift', '18+', 'known', 'active', 'join me', '2022-01-20', 'Exploring every world.'],
  ['Pixel Panda', 'hidden', 'new', 'offline', 'offline', '2025-02-14', 'Just a panda.'],
  [
    'Quill',
    'verified',
    'known',
    'offline',
    'active',
    '2018-09-01',
    'Writer. (Verified with the old system.)',
  ],
  ['Raven Hollow', '18+', 'known', 'offline', 'offline', '2022-04-01', 'Caw.'],
  ['さくら', 'hidden', 'user', 'online', 'active', '2022-05-05', 'こんにちは！ダンスが好きです。'],
  ['Tundra Wolf', 'hidden', 'user', 'offline', 'offline', '2022-07-07', 'Awoo.'],
  ['Umbra', '18+', 'trusted', 'offline', 'ask me', '2022-09-09', 'In the shadows.'],
  [
    'Vesper Lane',
    'hidden',
    'user',
    'offline',
    'offline',
    '2022-11-11',
    'Banned from the Hangout, ask me why.',
  ],
  ['Willow Wisp', 'hidden', 'new', 'offline', 'offline', '2023-01-13', 'Learning to dance.'],
  ['Xeno Blitz', 'hidden', 'user', 'offline', 'offline', '2023-03-03', 'I blocked the Hangout group.'],
  ['Yuki Frost', 'hidden', 'known', 'offline', 'active', '2023-06-21', '❄️'],
];

/** Users that can log in. */
const accountUsers: Row[] = [
  [
    'VRCLink Bot',
    'hidden',
    'known',
    'active',
    'active',
    '2024-01-01',
    'I am the VRCLink bot.',
    {
      statusDescription: 'Linking Discord ↔ VRChat',
    },
  ],
  ...[2, 3].map(
    (n): Row => [
      `VRCLink Bot ${n}`,
      'hidden',
      'known',
      'active',
      'active',
      '2024-01-01',
      'I am a VRCLink bot.',
      { statusDescription: 'Linking Discord ↔ VRChat' },
    ],
  ),
  ['Carol Casual', 'hidden', 'user', 'offline', 'active', '2023-08-15', 'Test account without 2FA.'],
  ['Dave Doubleauth', '18+', 'known', 'offline', 'active', '2023-09-19', 'Test account with TOTP.'],
];

export const userId = (name: string) => stableId('usr', `user:${name}`);

/** Seeded user ids by display name (the 25 people plus the five login accounts). */
export const vrchatUserIds: Readonly<Record<string, string>> = Object.fromEntries(
  [...people, ...accountUsers].map(([name]) => [name, userId(name)]),
);

/** Bot account `n` (2, 3, …): demo.ts `vrchatBotAccount(n)` as a user named `VRCLink Bot <n>`. */
export function botAccount(n: number) {
  const creds = vrchatBotAccount(n);
  return {
    ...creds,
    userId: userId(`VRCLink Bot ${n}`),
    displayName: `VRCLink Bot ${n}`,
    email: `${creds.username}@vrclink.local`,
    recoveryCodes: [] as string[],
  };
}

/** Accounts that can log in through /auth/user. The bot's credentials equal demo.ts `vrchatBot`. */
export const vrchatAccounts = {
  bot: {
    ...vrchatBot,
    userId: userId('VRCLink Bot'),
    displayName: 'VRCLink Bot',
    email: 'bot@vrclink.local',
    recoveryCodes: ['bot1-rc01', 'bot1-rc02', 'bot1-rc03'],
  },
  /** Further bot accounts (TOTP, in no group): each has its own rate-limit budget and block. */
  bot2: botAccount(2),
  bot3: botAccount(3),
  /** No 2FA: Basic login returns the CurrentUser at once. */
  carol: {
    username: 'carol',
    password: 'carol-password',
    totpSecret: undefined,
    userId: userId('Carol Casual'),
    displayName: 'Carol Casual',
    email: 'carol@vrclink.local',
    recoveryCodes: [] as string[],
  },
  /** TOTP, separate from the bot so session-limit tests don't lock the bot out. */
  dave: {
    username: 'dave',
    password: 'dave-password',
    totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    userId: userId('Dave Doubleauth'),
    displayName: 'Dave Doubleauth',
    email: 'dave@vrclink.local',
    recoveryCodes: ['dave-rc01', 'dave-rc02'],
  },
} as const;

export function seedUsers(state: VrchatState): void {
  [...people, ...accountUsers].forEach(
    ([name, age, trust, userState, status, joined, bio, extra = {}], i) => {
      const id = userId(name);
      // Fixed timestamps keep the seed deterministic; they only need to look plausible.
      const lastLogin = new Date(Date.UTC(2025, 5, 1, 12, 0, 0) + (i + 1) * 3_600_000).toISOString();
      state.users.set(id, {
        id,
        displayName: name,
        bio,
        bioLinks: extra.links ?? [],
        pronouns: extra.pronouns ?? '',
        ageVerificationStatus: age,
        ageVerified: extra.verifiedButHidden ?? (age === '18+' || age === 'verified'),
        developerType: 'none',
        state: userState,
        status,
        statusDescription: extra.statusDescription ?? '',
        tags: [...trustTags[trust], 'language_eng'],
        dateJoined: joined,
        lastLogin,
        lastActivity: lastLogin,
        lastPlatform: extra.platform ?? 'standalonewindows',
        avatarId: stableId('avtr', `avatar:${name}`),
        hasProfilePic: extra.pic ?? false,
        allowAvatarCopying: false,
        pastDisplayNames: [],
      });
    },
  );
  for (const a of Object.values(vrchatAccounts)) {
    state.accounts.set(a.userId, {
      userId: a.userId,
      username: a.username,
      email: a.email,
      password: a.password,
      totpSecret: a.totpSecret,
      recoveryCodes: [...a.recoveryCodes],
      twoFactorEnabledAt: a.totpSecret ? '2024-01-01T00:00:00.000Z' : undefined,
    });
  }
}
