import type { GuildPermission, ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { guildPermissions } from '../../../lib/guild-access/permissions';
import { type Answers, demoConfig, loggedInAs } from '../../../testing/renderApp';
import type { World, WorldsResponse } from '../api/worlds';

export const GUILD_ID = '1300000000000000001';
export const WORLDS = `/api/guilds/${GUILD_ID}/worlds`;
export const LOBBY_ID = '3f2b1c4d-0000-4000-8000-000000000001';
export const WORLDS_PATH = `/server-settings/${GUILD_ID}/worlds`;

export const ALL: GuildPermission[] = [...guildPermissions];

export const guildFixture = (permissions: GuildPermission[] = ALL): ManageableGuild => ({
  id: GUILD_ID,
  name: 'VRChat Hangout',
  icon: null,
  permissions,
});

export const role = (roleId: string, roleName: string, color = 0, position = 1) => ({
  roleId,
  roleName,
  color,
  position,
});

export function worldFixture(overrides: Partial<World> = {}): World {
  return {
    id: LOBBY_ID,
    name: 'Hangout Lobby',
    locked: true,
    compression: false,
    jsonMode: false,
    enabled: false,
    includeDiscordData: true,
    includeGroupData: false,
    customData: 'Welcome!',
    discordEncodeRoles: [role('r-admin', 'Admin', 0xe74c3c, 6), role('r-mod', 'Moderator', 0x3498db, 5)],
    discordAlwaysEncodeRoles: [role('r-gone', 'Deleted role', 0, -1)],
    groupEncodeRoles: [role('grol-owner', 'Owner', 0, 0)],
    groupAlwaysEncodeRoles: [],
    untrustedUrl: `https://vrclink.example/data/v2/${LOBBY_ID}`,
    trustedUrl: null,
    ...overrides,
  };
}

export const worldsFixture = (worlds: World[] = [worldFixture()]): WorldsResponse => ({
  worlds,
  discordRoles: [
    { id: 'r-admin', name: 'Admin', color: 0xe74c3c, position: 6 },
    { id: 'r-mod', name: 'Moderator', color: 0x3498db, position: 5 },
    { id: 'r-verified', name: 'Verified', color: 0x2ecc71, position: 3 },
  ],
  groupRoles: [
    { id: 'grol-owner', name: 'Owner', order: 0 },
    { id: 'grol-host', name: 'Event Host', order: 4 },
  ],
  groupRolesReadAt: '2026-01-01T00:00:00.000Z',
});

/** What the Worlds tab loads: the signed-in user, the config, the server list and its worlds. */
export function worldsTabAnswers(
  permissions: GuildPermission[] = ALL,
  worlds: WorldsResponse = worldsFixture(),
): Answers {
  return {
    ...loggedInAs('User'),
    'GET /api/config': { body: demoConfig },
    'GET /api/guilds': { body: [guildFixture(permissions)] },
    [`GET ${WORLDS}`]: { body: worlds },
  };
}
