import { z } from 'zod';
import { snowflake } from '../../../http/params.js';
import { versionField } from '../../../kernel/versions.js';

export const MAX_GUEST_ROLE_ENTRIES = 25;
export const MAX_GUEST_COUNT = 25;
export const GUEST_COUNT_RANGE = `Guest role count must be a whole number from 0 to ${MAX_GUEST_COUNT}.`;

export const guildParams = z.object({ guildId: snowflake });
export const guestRoleParams = z.object({ guildId: snowflake, guestRoleId: z.uuid() });

const roleId = snowflake.nullable();

export const autoAssignRoles = z.object({
  ageVerifiedRoleId: roleId,
  ageVerifiedPlus18RoleId: roleId,
  linkedRoleId: roleId,
});
z.globalRegistry.add(autoAssignRoles, { id: 'AutoAssignRoles' });
export type AutoAssignRoles = z.infer<typeof autoAssignRoles>;

/**
 * Why the bot can never give this role (pickers show it disabled): `managed` by an integration, or `aboveBot`
 * (at or above the bot's highest role); null when its position allows it.
 */
export const roleUnavailableSchema = z.enum(['managed', 'aboveBot']).nullable().meta({
  description:
    "Why the bot cannot give this role: 'managed' (an integration's role) or 'aboveBot' (at or above the bot's highest role); null when it can.",
});

export const guildSettingsResponse = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  members: z.number().int(),
  /** Members with a VRChat link. */
  linkedMembers: z.number().int(),
  /**
   * Whether the bot has Discord's Server Members intent. Without it only linked members are kept (and
   * counted); the tab explains how to switch it on.
   */
  membersIntent: z.boolean(),
  /** The server's roles without @everyone, highest first. */
  roles: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      color: z.number().int(),
      position: z.number().int(),
      unavailable: roleUnavailableSchema,
    }),
  ),
  autoAssignRoles,
  /** The auto roles' version: sent back with a save, which answers 409 when another manager saved since. */
  version: z.number().int(),
  contactEmail: z.string().nullable(),
});
z.globalRegistry.add(guildSettingsResponse, { id: 'GuildSettings' });

/**
 * What becomes of a role a changed setting no longer manages: 'take' (the default) has the bot take it back from
 * the members that setting gave it to; 'keep' leaves it on them, no longer managed.
 */
export const oldRolesChoice = z.enum(['take', 'keep'], { error: "Old roles must be 'take' or 'keep'." });
export type OldRolesChoice = z.infer<typeof oldRolesChoice>;

/** Each role: an id sets it, null clears it, left out keeps it. */
export const autoAssignRolesUpdate = z
  .object({
    autoAssignRoles: autoAssignRoles.partial().strict(),
    version: versionField.optional(),
    oldRoles: oldRolesChoice.optional(),
  })
  .strict();
export type AutoAssignRolesUpdate = z.infer<typeof autoAssignRolesUpdate>['autoAssignRoles'];

/** Checked in the service, so a bad address answers the spec's exact message. */
export const contactUpdate = z.object({ email: z.string().max(320) }).strict();

export const guestRoleEntry = z.object({
  id: z.uuid(),
  primaryRoleId: z.string().nullable(),
  guestRoleId: z.string().nullable(),
  count: z.number().int(),
  /** Sent back with a change, which answers 409 when another manager changed the entry since. */
  version: z.number().int(),
});
z.globalRegistry.add(guestRoleEntry, { id: 'GuestRoleEntry' });

export const guestRolesResponse = z.object({ guestRoles: z.array(guestRoleEntry) });

export const guestCount = z
  .number({ error: GUEST_COUNT_RANGE })
  .int({ error: GUEST_COUNT_RANGE })
  .min(0, { error: GUEST_COUNT_RANGE })
  .max(MAX_GUEST_COUNT, { error: GUEST_COUNT_RANGE });

/** The row as the guest table shows it; null clears a role, a field left out keeps its value. */
export const guestRoleUpdate = z
  .object({
    id: z.uuid(),
    primaryRoleId: roleId.optional(),
    guestRoleId: roleId.optional(),
    count: guestCount.optional(),
    version: versionField.optional(),
  })
  .strict();
export type GuestRoleUpdate = z.infer<typeof guestRoleUpdate>;
