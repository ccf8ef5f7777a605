import { api, type Schemas, unwrap } from '../../api/client';
import { propertyEnum } from '../../api/schemaEnums';

type MappingRole = Schemas['MappingRole'];
export type DiscordToGroupMapping = Schemas['DiscordGroupMapping'];
export type GroupToDiscordMapping = Schemas['GroupDiscordMapping'];
type DiscordToGroupList = Schemas['DiscordToGroupMappings'];
type GroupToDiscordList = Schemas['GroupToDiscordMappings'];

/** What both directions' entries have: an id, a role on each side and an action. */
export interface MappingEntry {
  id: string;
  discordRoleId: string | null;
  groupRoleId: string | null;
  action: string;
}

/** The keys of a list answer that hold role choices, checked against the OpenAPI document. */
type RoleListKey<List> = { [K in keyof List]: List[K] extends MappingRole[] ? K : never }[keyof List];

/** One side of a mapping: the column it fills, its header, and which list in the answer offers its roles. */
interface MappingSide<List> {
  column: 'discordRoleId' | 'groupRoleId';
  label: 'Discord Role' | 'Group Role';
  roles: RoleListKey<List>;
}

/**
 * Everything that tells the two role-mapping directions apart, so one table, dialog and set of hooks serve
 * both. Actions come from the OpenAPI document; which of them name a target role is the product's rule.
 */
export interface MappingDirection<List, Entry extends MappingEntry> {
  kind: 'discordToGroup' | 'groupToDiscord';
  title: string;
  /** A row's name is this and its number: 'Discord to group mapping 1'. */
  rowName: string;
  source: MappingSide<List>;
  target: MappingSide<List>;
  actions: readonly Entry['action'][];
  /** The actions that name a target role; the others keep none (the server clears it too). */
  targetActions: readonly Entry['action'][];
  /** A first row that stays (@everyone): shown by name, with its own actions, never removed. */
  fixed?: { name: string; entry: (list: List) => Entry; actions: readonly Entry['action'][] };
  /** The rows that can be changed and removed, oldest first. */
  entries: (list: List) => Entry[];
  /** The list with one entry replaced, to show a change before the server answers. */
  withEntry: (list: List, entry: Entry) => List;
  key: (guildId: string) => readonly [string, string];
  list: (guildId: string) => Promise<List>;
  create: (guildId: string) => Promise<{ id: string }>;
  update: (guildId: string, entry: Entry) => Promise<Entry>;
  remove: (guildId: string, id: string) => Promise<unknown>;
}

const guildPath = (guildId: string) => ({ params: { path: { guildId } } });
const entryPath = (guildId: string, roleId: string) => ({ params: { path: { guildId, roleId } } });
const discordRole = { column: 'discordRoleId', label: 'Discord Role', roles: 'guildRoles' } as const;
const groupRole = { column: 'groupRoleId', label: 'Group Role', roles: 'groupRoles' } as const;

/** 'Discord to Group Roles': what holders of a Discord role get in the group. */
export const discordToGroup: MappingDirection<DiscordToGroupList, DiscordToGroupMapping> = {
  kind: 'discordToGroup',
  title: 'Discord to Group Roles',
  rowName: 'Discord to group mapping',
  source: discordRole,
  target: groupRole,
  actions: propertyEnum('DiscordGroupMapping', 'action'),
  targetActions: ['GrantRolePermanent', 'GrantRoleTemporary', 'RevokeRole'],
  // @everyone is every linked member: they may join the group or not, nothing else.
  fixed: { name: '@everyone', entry: (list) => list.everyoneRole, actions: ['None', 'Membership'] },
  entries: (list) => list.linkedGroupRoles,
  withEntry: (list, entry) =>
    list.everyoneRole.id === entry.id
      ? { ...list, everyoneRole: entry }
      : { ...list, linkedGroupRoles: list.linkedGroupRoles.map((e) => (e.id === entry.id ? entry : e)) },
  key: (guildId) => ['discord-to-group-mappings', guildId],
  list: (guildId) => unwrap(api.GET('/api/guilds/{guildId}/guild_roles', guildPath(guildId))),
  create: (guildId) => unwrap(api.POST('/api/guilds/{guildId}/guild_roles', guildPath(guildId))),
  update: (guildId, body) =>
    unwrap(api.PUT('/api/guilds/{guildId}/guild_roles', { ...guildPath(guildId), body })),
  remove: (guildId, id) =>
    unwrap(api.DELETE('/api/guilds/{guildId}/guild_roles/{roleId}', entryPath(guildId, id))),
};

/** 'Group to Discord Roles': what holders of a group role get in the server. */
export const groupToDiscord: MappingDirection<GroupToDiscordList, GroupToDiscordMapping> = {
  kind: 'groupToDiscord',
  title: 'Group to Discord Roles',
  rowName: 'Group to Discord mapping',
  source: groupRole,
  target: discordRole,
  actions: propertyEnum('GroupDiscordMapping', 'action'),
  targetActions: ['GrantRolePermanent', 'GrantRoleTemporary'],
  entries: (list) => list.linkedGuildRoles,
  withEntry: (list, entry) => ({
    ...list,
    linkedGuildRoles: list.linkedGuildRoles.map((e) => (e.id === entry.id ? entry : e)),
  }),
  key: (guildId) => ['group-to-discord-mappings', guildId],
  list: (guildId) => unwrap(api.GET('/api/groups/{guildId}/group_roles', guildPath(guildId))),
  create: (guildId) => unwrap(api.POST('/api/groups/{guildId}/group_roles', guildPath(guildId))),
  update: (guildId, body) =>
    unwrap(api.PUT('/api/groups/{guildId}/group_roles', { ...guildPath(guildId), body })),
  remove: (guildId, id) =>
    unwrap(api.DELETE('/api/groups/{guildId}/group_roles/{roleId}', entryPath(guildId, id))),
};
