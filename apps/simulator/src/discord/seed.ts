import { createHash } from 'node:crypto';
import { adminDiscordUserId, discordApp } from '../demo.js';
import { combine, Permission } from './permissions.js';
import { PEOPLE } from './seed-people.js';
import type { SimChannel, SimGuild, SimMember, SimRole, SimUser } from './types.js';

/**
 * The deterministic demo world. Ids follow demo.ts's pattern (valid snowflakes, same length, so
 * they sort numerically as text too): users 12…, guilds 13…, roles 14…, channels 15….
 */

const userId = (n: number) => `1200000000000000${String(n).padStart(3, '0')}`;
const roleId = (g: number, n: number) => `140000000000000${g}${String(n).padStart(3, '0')}`;
const channelId = (g: number, n: number) => `150000000000000${g}${String(n).padStart(3, '0')}`;

/** Avatar hashes look like Discord's (32 hex chars); every fourth user has none. */
const avatarFor = (username: string, n: number) =>
  n % 4 === 3 ? null : createHash('md5').update(username).digest('hex');

export const seedUserIds = {
  admin: adminDiscordUserId,
  bot: discordApp.botUserId,
  /** Seeded humans in index order (1-based: humans[0] is the admin). */
  humans: PEOPLE.map((_, i) => userId(i + 1)),
  /** Humans who are in no guild yet, for "join later" scenarios. */
  unaffiliated: [userId(41), userId(42), userId(43), userId(44)],
} as const;

export const EVERYONE_PERMS = combine(
  Permission.CreateInstantInvite,
  Permission.AddReactions,
  Permission.ViewChannel,
  Permission.SendMessages,
  Permission.EmbedLinks,
  Permission.AttachFiles,
  Permission.ReadMessageHistory,
  Permission.UseExternalEmojis,
  Permission.Connect,
  Permission.Speak,
  Permission.ChangeNickname,
  Permission.UseApplicationCommands,
);
export const MOD_PERMS = combine(
  Permission.KickMembers,
  Permission.BanMembers,
  Permission.ManageMessages,
  Permission.ManageNicknames,
  Permission.ManageRoles,
  Permission.ModerateMembers,
  Permission.ViewAuditLog,
);
/** What the bot's managed role gets when seeded (the install URL asks for the same). */
export const BOT_ROLE_PERMS = combine(
  Permission.ManageRoles,
  Permission.ManageNicknames,
  Permission.ViewChannel,
  Permission.SendMessages,
  Permission.EmbedLinks,
  Permission.ReadMessageHistory,
  Permission.UseApplicationCommands,
);

interface RoleSpec {
  key: string;
  name: string;
  color: number;
  permissions: bigint;
  hoist?: boolean;
  bot?: boolean;
}

interface GuildSpec {
  n: number;
  key: 'hangout' | 'danceClub' | 'quietCorner';
  name: string;
  description: string;
  ownerIndex: number;
  /** Highest first; positions are assigned from this order. */
  roles: RoleSpec[];
  /** 1-based human indexes that are members. */
  members: number[];
  botMember: boolean;
  /** Role keys per member index, chosen deterministically. */
  rolesFor: (i: number) => string[];
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const GUILDS: GuildSpec[] = [
  {
    n: 1,
    key: 'hangout',
    name: 'VRChat Hangout',
    description: 'A friendly place to meet people from VRChat.',
    ownerIndex: 1,
    roles: [
      { key: 'Admin', name: 'Admin', color: 0xe74c3c, permissions: Permission.Administrator, hoist: true },
      { key: 'Moderator', name: 'Moderator', color: 0x3498db, permissions: MOD_PERMS, hoist: true },
      { key: 'VRCLink', name: 'VRCLink', color: 0, permissions: BOT_ROLE_PERMS, bot: true },
      { key: 'Verified', name: 'Verified', color: 0x2ecc71, permissions: 0n },
      { key: 'Event Host', name: 'Event Host', color: 0xf1c40f, permissions: 0n },
      { key: 'Newcomer', name: 'Newcomer', color: 0x95a5a6, permissions: 0n },
      // Given to guests by hosts (the product's guest setup); nobody holds it at the start.
      { key: 'Guest', name: 'Guest', color: 0x7f8c8d, permissions: 0n },
    ],
    members: range(1, 40),
    botMember: true,
    rolesFor: (i) => [
      ...(i === 1 ? ['Admin'] : []),
      ...(i === 2 || i === 3 ? ['Moderator'] : []),
      ...(i % 3 === 0 ? ['Verified'] : []),
      ...(i % 7 === 0 ? ['Event Host'] : []),
      ...(i > 35 ? ['Newcomer'] : []),
    ],
  },
  {
    n: 2,
    key: 'danceClub',
    name: 'Furry Dance Club',
    description: 'Friday night dance events.',
    ownerIndex: 5,
    roles: [
      {
        key: 'Staff',
        name: 'Staff',
        color: 0x9b59b6,
        permissions: MOD_PERMS | Permission.ManageGuild,
        hoist: true,
      },
      { key: 'VRCLink', name: 'VRCLink', color: 0, permissions: BOT_ROLE_PERMS, bot: true },
      { key: 'DJ', name: 'DJ', color: 0xe67e22, permissions: 0n, hoist: true },
      { key: 'Dancer', name: 'Dancer', color: 0x1abc9c, permissions: 0n },
      { key: 'Verified', name: 'Verified', color: 0x2ecc71, permissions: 0n },
    ],
    members: [...range(1, 30), ...range(37, 40)],
    botMember: true,
    rolesFor: (i) => [
      ...(i === 1 || i === 5 || i === 6 ? ['Staff'] : []),
      ...(i % 5 === 0 ? ['DJ'] : []),
      ...(i % 2 === 0 ? ['Dancer'] : []),
      ...(i % 4 === 0 ? ['Verified'] : []),
    ],
  },
  {
    n: 3,
    key: 'quietCorner',
    name: 'Quiet Corner',
    description: 'Low-key chat and reading club.',
    ownerIndex: 9,
    roles: [
      {
        key: 'Caretaker',
        name: 'Caretaker',
        color: 0x16a085,
        permissions: Permission.Administrator,
        hoist: true,
      },
      { key: 'Regular', name: 'Regular', color: 0x2980b9, permissions: 0n },
      { key: 'Night Owl', name: 'Night Owl', color: 0x34495e, permissions: 0n },
      { key: 'Reader', name: 'Reader', color: 0x8e44ad, permissions: 0n },
    ],
    members: range(1, 30),
    botMember: false,
    rolesFor: (i) => [
      ...(i === 1 || i === 9 ? ['Caretaker'] : []),
      ...(i % 2 === 1 ? ['Regular'] : []),
      ...(i % 6 === 0 ? ['Night Owl'] : []),
      ...(i % 5 === 2 ? ['Reader'] : []),
    ],
  },
];

type RoleKeys<G extends GuildSpec['key']> = G extends 'hangout'
  ? 'everyone' | 'Admin' | 'Moderator' | 'VRCLink' | 'Verified' | 'Event Host' | 'Newcomer' | 'Guest'
  : G extends 'danceClub'
    ? 'everyone' | 'Staff' | 'VRCLink' | 'DJ' | 'Dancer' | 'Verified'
    : 'everyone' | 'Caretaker' | 'Regular' | 'Night Owl' | 'Reader';

interface SeedGuildIds<G extends GuildSpec['key']> {
  id: string;
  name: string;
  /** Role ids by role name; `everyone` is the @everyone role (its id is the guild id). */
  roles: Record<RoleKeys<G>, string>;
  channels: { general: string; botLog: string };
}

function guildIds<G extends GuildSpec['key']>(key: G): SeedGuildIds<G> {
  const spec = GUILDS.find((g) => g.key === key)!;
  const id = `130000000000000000${spec.n}`;
  const roles: Record<string, string> = { everyone: id };
  spec.roles.forEach((r, i) => {
    roles[r.key] = roleId(spec.n, i + 1);
  });
  return {
    id,
    name: spec.name,
    roles: roles as Record<RoleKeys<G>, string>,
    channels: { general: channelId(spec.n, 1), botLog: channelId(spec.n, 2) },
  };
}

/** Stable ids of the seeded guilds, their roles (by name) and channels. */
export const seedGuildIds = {
  hangout: guildIds('hangout'),
  danceClub: guildIds('danceClub'),
  quietCorner: guildIds('quietCorner'),
} as const;

const SEED_BASE_TIME = Date.UTC(2024, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

/** Builds a fresh copy of the seeded world (each simulator instance mutates its own). */
export function buildSeed(): { users: Map<string, SimUser>; guilds: Map<string, SimGuild> } {
  const users = new Map<string, SimUser>();
  users.set(discordApp.botUserId, {
    id: discordApp.botUserId,
    username: discordApp.botUsername,
    globalName: null,
    avatar: null,
    bot: true,
    email: null,
    locale: 'en-US',
    mfaEnabled: true,
  });
  PEOPLE.forEach(([username, globalName], i) => {
    const id = userId(i + 1);
    users.set(id, {
      id,
      username,
      globalName,
      avatar: avatarFor(username, i + 1),
      bot: false,
      email: `${username.replace(/\./g, '_')}@users.discord.test`,
      locale: i % 5 === 4 ? 'ja' : 'en-US',
      mfaEnabled: i % 2 === 0,
    });
  });

  const guilds = new Map<string, SimGuild>();
  for (const spec of GUILDS) {
    const ids = seedGuildIds[spec.key];
    const roles = new Map<string, SimRole>();
    roles.set(ids.id, {
      id: ids.id,
      name: '@everyone',
      color: 0,
      position: 0,
      permissions: EVERYONE_PERMS,
      hoist: false,
      managed: false,
      mentionable: false,
    });
    spec.roles.forEach((r, i) => {
      const id = (ids.roles as Record<string, string>)[r.key];
      roles.set(id, {
        id,
        name: r.name,
        color: r.color,
        position: spec.roles.length - i,
        permissions: r.permissions,
        hoist: r.hoist ?? false,
        managed: r.bot ?? false,
        mentionable: false,
        ...(r.bot ? { botId: discordApp.botUserId } : {}),
      });
    });
    const roleIdOf = (key: string) => (ids.roles as Record<string, string>)[key];
    const members = new Map<string, SimMember>();
    for (const i of spec.members) {
      members.set(userId(i), {
        userId: userId(i),
        nick: i % 6 === 2 ? `${PEOPLE[i - 1][1] ?? PEOPLE[i - 1][0]} [${spec.name.split(' ')[0]}]` : null,
        roles: spec.rolesFor(i).map(roleIdOf),
        joinedAt: new Date(SEED_BASE_TIME + (i * 3 + spec.n) * DAY).toISOString(),
      });
    }
    if (spec.botMember) {
      members.set(discordApp.botUserId, {
        userId: discordApp.botUserId,
        nick: null,
        roles: [roleIdOf('VRCLink')],
        joinedAt: new Date(SEED_BASE_TIME + 200 * DAY).toISOString(),
      });
    }
    const channels = new Map<string, SimChannel>();
    (['general', 'bot-log'] as const).forEach((name, i) => {
      const id = i === 0 ? ids.channels.general : ids.channels.botLog;
      channels.set(id, { id, guildId: ids.id, name, type: 0, position: i, topic: null, lastMessageId: null });
    });
    guilds.set(ids.id, {
      id: ids.id,
      name: spec.name,
      description: spec.description,
      // Discord-style icon hash; the simulator's CDN draws a picture for it.
      icon: createHash('md5').update(`guild:${spec.key}`).digest('hex'),
      ownerId: userId(spec.ownerIndex),
      roles,
      members,
      channels,
    });
  }
  return { users, guilds };
}
