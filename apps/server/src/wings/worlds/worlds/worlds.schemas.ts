import { z } from 'zod';
import { snowflake } from '../../../http/params.js';

export const MAX_WORLDS_PER_GUILD = 50;
export const MAX_ROLES_PER_LIST = 50;
/** Custom World Data is embedded in every download; VRChat worlds parse it on join. */
export const MAX_CUSTOM_DATA_LENGTH = 200_000;

export const worldRoleEntry = z.object({
  roleId: z.string(),
  roleName: z.string(),
  color: z.number().int(),
  position: z.number().int(),
});

export const world = z.object({
  id: z.uuid(),
  name: z.string(),
  locked: z.boolean(),
  compression: z.boolean(),
  jsonMode: z.boolean(),
  /** 'Github Updates Enabled'. */
  enabled: z.boolean(),
  includeDiscordData: z.boolean(),
  includeGroupData: z.boolean(),
  customData: z.string(),
  discordEncodeRoles: z.array(worldRoleEntry),
  discordAlwaysEncodeRoles: z.array(worldRoleEntry),
  groupEncodeRoles: z.array(worldRoleEntry),
  groupAlwaysEncodeRoles: z.array(worldRoleEntry),
  /** The address worlds load first ('Untrusted URL'). */
  untrustedUrl: z.string(),
  /** The GitHub Pages mirror ('Trusted URL'); null when no mirror is configured. */
  trustedUrl: z.string().nullable(),
});
z.globalRegistry.add(world, { id: 'World' });

export const worldsResponse = z.object({
  worlds: z.array(world),
  discordRoles: z.array(
    z.object({ id: z.string(), name: z.string(), color: z.number().int(), position: z.number().int() }),
  ),
  /**
   * The linked group's roles (kept by the server and refreshed when the group changes; [] without a linked
   * group). null when they are not known right now: no copy is kept and VRChat could not be asked.
   */
  groupRoles: z.array(z.object({ id: z.string(), name: z.string(), order: z.number().int() })).nullable(),
  /** When VRChat answered `groupRoles` (null without a linked group or when they are not known). */
  groupRolesReadAt: z.string().nullable(),
});
z.globalRegistry.add(worldsResponse, { id: 'WorldsResponse' });

export const worldUpdate = world
  .pick({
    locked: true,
    compression: true,
    jsonMode: true,
    enabled: true,
    includeDiscordData: true,
    includeGroupData: true,
  })
  .extend({ name: z.string().trim().min(1).max(100), customData: z.string().max(MAX_CUSTOM_DATA_LENGTH) })
  .partial()
  .strict();
export type WorldUpdate = z.infer<typeof worldUpdate>;

export const roleListKeys = [
  'discordEncodeRoles',
  'discordAlwaysEncodeRoles',
  'groupEncodeRoles',
  'groupAlwaysEncodeRoles',
] as const;
export type RoleListKey = (typeof roleListKeys)[number];

const roleIds = z.array(z.string().min(1).max(64)).max(MAX_ROLES_PER_LIST);
/** Exactly one of the four lists, as the picker that changed sends it. */
export const worldRolesUpdate = z.union([
  z.object({ discordEncodeRoles: roleIds }).strict(),
  z.object({ discordAlwaysEncodeRoles: roleIds }).strict(),
  z.object({ groupEncodeRoles: roleIds }).strict(),
  z.object({ groupAlwaysEncodeRoles: roleIds }).strict(),
]);

export const guildParams = z.object({ guildId: snowflake });
export const worldParams = z.object({ guildId: snowflake, worldId: z.uuid() });
