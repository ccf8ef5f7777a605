import { stableId } from './ids.js';
import { userId } from './seed-users.js';
import type { MembershipStatus, VrcGroup, VrchatState, VrcRole } from './state.js';

/** The two seeded groups with their roles and members. */

const groupId = (key: string) => stableId('grp', `group:${key}`);
const roleId = (group: string, key: string) => stableId('grol', `role:${group}:${key}`);

export const vrchatGroupIds = {
  /** 'VRC Hangout Official', joinState 'request'. */
  hangout: groupId('hangout'),
  /** 'Dance Club', joinState 'open'. */
  danceClub: groupId('dance-club'),
} as const;

/** Role ids per group. order: lower = higher rank; the bot's 'Bot' role is below Owner and Moderator/Instructor. */
export const vrchatRoleIds = {
  hangout: {
    owner: roleId('hangout', 'owner'),
    moderator: roleId('hangout', 'moderator'),
    bot: roleId('hangout', 'bot'),
    verified18: roleId('hangout', 'verified18'),
    linked: roleId('hangout', 'linked'),
    eventHost: roleId('hangout', 'event-host'),
  },
  danceClub: {
    owner: roleId('dance-club', 'owner'),
    instructor: roleId('dance-club', 'instructor'),
    bot: roleId('dance-club', 'bot'),
    dancer: roleId('dance-club', 'dancer'),
    newcomer: roleId('dance-club', 'newcomer'),
  },
} as const;

export const botPerms = [
  'group-roles-assign',
  'group-members-manage',
  'group-members-remove',
  'group-members-viewall',
  'group-invites-manage',
  'group-audit-view',
];
export const modPerms = [...botPerms, 'group-bans-manage', 'group-roles-manage', 'group-announcement-manage'];

interface SeedGroup {
  key: 'hangout' | 'danceClub';
  group: Omit<VrcGroup, 'id' | 'iconId' | 'bannerId' | 'updatedAt'>;
  roles: { key: string; name: string; description: string; permissions: string[]; management?: boolean }[];
  /** [display name, role keys, status] */
  members: [string, string[], MembershipStatus?][];
}

const groups: SeedGroup[] = [
  {
    key: 'hangout',
    group: {
      name: 'VRC Hangout Official',
      shortCode: 'HANGOUT',
      discriminator: '0001',
      description: 'A friendly place to hang out. Link your Discord account to get your roles.',
      rules: '1. Be kind.\n2. No harassment.\n3. Age-gated events need the Verified 18+ role.',
      joinState: 'request',
      privacy: 'default',
      ownerId: userId('Aurora Skye'),
      tags: ['language_eng', 'social'],
      languages: ['eng'],
      links: ['https://discord.gg/vrclink-demo'],
      isVerified: true,
      createdAt: '2023-03-14T18:00:00.000Z',
    },
    roles: [
      { key: 'owner', name: 'Owner', description: 'Group owner', permissions: ['*'], management: true },
      {
        key: 'moderator',
        name: 'Moderator',
        description: 'Keeps the peace',
        permissions: modPerms,
        management: true,
      },
      { key: 'bot', name: 'Bot', description: 'VRCLink bot', permissions: botPerms, management: true },
      {
        key: 'verified18',
        name: 'Verified 18+',
        description: 'Age verified 18+',
        permissions: ['group-instance-age-gated-create'],
      },
      {
        key: 'linked',
        name: 'Linked',
        description: 'Discord account linked',
        permissions: ['group-instance-join'],
      },
      {
        key: 'eventHost',
        name: 'Event Host',
        description: 'Runs events',
        permissions: ['group-instance-open-create'],
      },
    ],
    members: [
      ['Aurora Skye', ['owner']],
      ['Bastian', ['moderator']],
      ['VRCLink Bot', ['bot']],
      ['Echo Lumen', ['verified18']],
      ['Glimmer', ['verified18', 'eventHost']],
      ['Iris Nova', []],
      ['Jasper Vale', []],
      ['Kitsune Kai', ['linked']],
      ['Lumi', []],
      ['Moth Queen', []],
      ['Orion Drift', []],
      ['Quill', []],
      ['Raven Hollow', []],
      ['Tundra Wolf', []],
      ['Umbra', []],
      ['Dave Doubleauth', []],
      ['Nyx Ember', [], 'invited'],
      ['Pixel Panda', [], 'requested'],
      ['Xeno Blitz', [], 'userblocked'],
      ['Vesper Lane', [], 'banned'],
    ],
  },
  {
    key: 'danceClub',
    group: {
      name: 'Dance Club',
      shortCode: 'DANCE',
      discriminator: '4821',
      description: 'Weekly dance lessons and parties. Everyone welcome!',
      rules: 'Have fun and respect personal space.',
      joinState: 'open',
      privacy: 'default',
      ownerId: userId('Cinder Fox'),
      tags: ['language_eng', 'language_jpn', 'dance'],
      languages: ['eng', 'jpn'],
      links: [],
      isVerified: false,
      createdAt: '2023-07-01T20:00:00.000Z',
    },
    roles: [
      { key: 'owner', name: 'Owner', description: 'Group owner', permissions: ['*'], management: true },
      {
        key: 'instructor',
        name: 'Instructor',
        description: 'Teaches classes',
        permissions: modPerms,
        management: true,
      },
      { key: 'bot', name: 'Bot', description: 'VRCLink bot', permissions: botPerms, management: true },
      { key: 'dancer', name: 'Dancer', description: 'Regular dancer', permissions: ['group-instance-join'] },
      { key: 'newcomer', name: 'Newcomer', description: 'First weeks in the club', permissions: [] },
    ],
    members: [
      ['Cinder Fox', ['owner']],
      ['Fennec Byte', ['instructor']],
      ['VRCLink Bot', ['bot']],
      ['Hollow Pine', ['dancer']],
      ['さくら', ['dancer']],
      ['Echo Lumen', ['dancer']],
      ['Willow Wisp', ['newcomer']],
      ['Yuki Frost', []],
      ['Aurora Skye', []],
    ],
  },
];

const roleKeyIds: Record<string, Record<string, string>> = vrchatRoleIds;

/** Fills a fresh state with the seeded world. */
export function seedGroups(state: VrchatState): void {
  for (const g of groups) {
    const id = vrchatGroupIds[g.key];
    state.groups.set(id, {
      ...g.group,
      id,
      iconId: stableId('file', `icon:${g.key}`),
      bannerId: stableId('file', `banner:${g.key}`),
      updatedAt: g.group.createdAt,
    });
    g.roles.forEach((r, order) => {
      const role: VrcRole = {
        id: roleKeyIds[g.key][r.key],
        groupId: id,
        name: r.name,
        description: r.description,
        order,
        permissions: r.permissions,
        isSelfAssignable: false,
        isManagementRole: r.management ?? false,
        requiresTwoFactor: false,
        requiresPurchase: false,
        createdAt: g.group.createdAt,
        updatedAt: g.group.createdAt,
      };
      state.roles.set(role.id, role);
    });
    g.members.forEach(([name, roleKeys, status = 'member'], n) => {
      const uid = userId(name);
      const at = new Date(Date.parse(g.group.createdAt) + n * 86_400_000).toISOString();
      state.setMembership({
        id: stableId('gmem', `member:${g.key}:${name}`),
        groupId: id,
        userId: uid,
        status,
        roleIds: roleKeys.map((k) => roleKeyIds[g.key][k]),
        visibility: 'visible',
        isRepresenting: false,
        isSubscribedToAnnouncements: true,
        managerNotes: '',
        createdAt: at,
        joinedAt: status === 'member' ? at : null,
        bannedAt: status === 'banned' ? at : null,
        acceptedById: status === 'member' && uid !== g.group.ownerId ? g.group.ownerId : null,
      });
    });
  }
}
