import { z } from 'zod';
import { discordToGroupActions, groupToDiscordActions } from '../../../db/schema/sync.js';
import { snowflake } from '../../../http/params.js';
import { versionField } from '../../../kernel/versions.js';

export const DISCORD_TO_GROUP_ACTION = `Action must be one of: ${discordToGroupActions.join(', ')}.`;
export const GROUP_TO_DISCORD_ACTION = `Action must be one of: ${groupToDiscordActions.join(', ')}.`;
const ROLE_ID = 'A role id must be a string of at most 100 characters.';
const MAPPING_ID = 'The mapping id must be a UUID.';

export const guildParams = z.object({ guildId: snowflake });
export const mappingParams = z.object({ guildId: snowflake, roleId: z.uuid({ error: MAPPING_ID }) });

export const roleRef = z.object({ id: z.string(), name: z.string() });
z.globalRegistry.add(roleRef, { id: 'MappingRole' });

const discordToGroupAction = z.enum(discordToGroupActions, { error: DISCORD_TO_GROUP_ACTION });
const groupToDiscordAction = z.enum(groupToDiscordActions, { error: GROUP_TO_DISCORD_ACTION });

/** A mapping of either direction: the same fields, the actions of its direction. */
const mappingOf = <A extends z.ZodType>(action: A) =>
  z.object({
    id: z.uuid(),
    discordRoleId: z.string().nullable(),
    groupRoleId: z.string().nullable(),
    action,
    /** Sent back with a change, which answers 409 when another manager changed the entry since. */
    version: z.number().int(),
  });

export const discordGroupMapping = mappingOf(discordToGroupAction);
z.globalRegistry.add(discordGroupMapping, { id: 'DiscordGroupMapping' });
export type DiscordGroupMapping = z.infer<typeof discordGroupMapping>;

export const groupDiscordMapping = mappingOf(groupToDiscordAction);
z.globalRegistry.add(groupDiscordMapping, { id: 'GroupDiscordMapping' });
export type GroupDiscordMapping = z.infer<typeof groupDiscordMapping>;

export const guildRolesResponse = z.object({
  /** The server's roles a mapping may use: no @everyone, no integration-managed roles; highest first. */
  guildRoles: z.array(roleRef),
  /** The linked group's roles a mapping may use: no owner role, no purchase-only roles; highest first. */
  groupRoles: z.array(roleRef),
  /** The Discord to group entries, oldest first, without the @everyone entry. */
  linkedGroupRoles: z.array(discordGroupMapping),
  /** The entry for @everyone (every linked member): its discordRoleId is the server's id. */
  everyoneRole: discordGroupMapping,
});
z.globalRegistry.add(guildRolesResponse, { id: 'DiscordToGroupMappings' });

/** A Discord role the bot would give (group to Discord): `aboveBot` when it is at or above the bot's highest role. */
export const givenGuildRole = roleRef.extend({
  unavailable: z.enum(['aboveBot']).nullable().meta({
    description:
      "'aboveBot' when the role is at or above the bot's highest Discord role, so the bot cannot give it; else null.",
  }),
});
z.globalRegistry.add(givenGuildRole, { id: 'MappingGivenRole' });

export const groupRolesResponse = z.object({
  /** The server's roles the bot may be asked to give: no @everyone, no integration-managed roles; highest first. */
  guildRoles: z.array(givenGuildRole),
  groupRoles: z.array(roleRef),
  /** The group to Discord entries, oldest first. */
  linkedGuildRoles: z.array(groupDiscordMapping),
});
z.globalRegistry.add(groupRolesResponse, { id: 'GroupToDiscordMappings' });

export const createdMapping = z.object({ id: z.uuid() });

const roleId = z.string({ error: ROLE_ID }).max(100, { error: ROLE_ID }).nullable();

/** The row as the table shows it: null clears a role, a field left out keeps its value. */
export const discordGroupMappingUpdate = z
  .object({
    id: z.uuid({ error: MAPPING_ID }),
    discordRoleId: roleId.optional(),
    groupRoleId: roleId.optional(),
    action: discordToGroupAction.optional(),
    version: versionField.optional(),
  })
  .strict();
export type DiscordGroupMappingUpdate = z.infer<typeof discordGroupMappingUpdate>;

export const groupDiscordMappingUpdate = z
  .object({
    id: z.uuid({ error: MAPPING_ID }),
    discordRoleId: roleId.optional(),
    groupRoleId: roleId.optional(),
    action: groupToDiscordAction.optional(),
    version: versionField.optional(),
  })
  .strict();
export type GroupDiscordMappingUpdate = z.infer<typeof groupDiscordMappingUpdate>;
