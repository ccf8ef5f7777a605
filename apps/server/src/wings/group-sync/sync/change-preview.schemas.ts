import { z } from 'zod';
import { discordToGroupActions, groupToDiscordActions } from '../../../db/schema/sync.js';
import { snowflake } from '../../../http/params.js';
import { guestCount, oldRolesChoice } from '../../community/index.js';

const roleId = snowflake.nullable();
/** Mapping role ids as the mapping routes take them (the server's id stands for @everyone). */
const mappingRoleId = z.string().max(100).nullable();

/** A settings change the bot would act on, described as the save routes take it. */
export const proposedChange = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('autoRoles'),
      autoAssignRoles: z
        .object({ ageVerifiedRoleId: roleId, ageVerifiedPlus18RoleId: roleId, linkedRoleId: roleId })
        .partial(),
      /** A role the change stops managing: taken back from its holders ('take', the default) or left ('keep'). */
      oldRoles: oldRolesChoice.optional(),
    }),
    z.object({
      kind: z.literal('groupSettings'),
      enabled: z.boolean().optional(),
      autoKick: z.boolean().optional(),
    }),
    z.object({
      kind: z.literal('discordToGroup'),
      /** The mapping changed or deleted; left out for a new one. */
      id: z.uuid().optional(),
      /** The mapping after the change; null deletes it. */
      mapping: z
        .object({
          discordRoleId: mappingRoleId,
          groupRoleId: mappingRoleId,
          action: z.enum(discordToGroupActions),
        })
        .nullable(),
    }),
    z.object({
      kind: z.literal('groupToDiscord'),
      id: z.uuid().optional(),
      mapping: z
        .object({
          discordRoleId: mappingRoleId,
          groupRoleId: mappingRoleId,
          action: z.enum(groupToDiscordActions),
        })
        .nullable(),
    }),
    z.object({
      kind: z.literal('guestRole'),
      /** The guest-role entry changed or deleted. */
      id: z.uuid(),
      /** Its new values as the guest-role save takes them (left out: unchanged); null deletes it. */
      entry: z
        .object({
          primaryRoleId: roleId.optional(),
          guestRoleId: roleId.optional(),
          count: guestCount.optional(),
        })
        .nullable(),
    }),
  ],
  {
    error:
      "The change must be one of 'autoRoles', 'groupSettings', 'discordToGroup', 'groupToDiscord', 'guestRole'.",
  },
);
export type ProposedChange = z.infer<typeof proposedChange>;

const effect = z.object({
  /** 'discordRole' and 'groupRole' name a role; the others concern group membership. */
  kind: z.enum(['discordRole', 'groupRole', 'invite', 'acceptRequest', 'remove']),
  roleName: z.string().nullable(),
  /** A sentence: 'Event Host will be taken from 5 members and given to 2.' */
  sentence: z.string(),
  /** Who gets the role, is invited or accepted. */
  given: z.array(z.string()),
  /** Who loses the role or is removed. */
  taken: z.array(z.string()),
});

export const changePreview = z.object({
  /** One entry per role or membership action; empty when the change affects nobody. */
  effects: z.array(effect),
  /** Actions the change adds to the sync in all. */
  total: z.number().int(),
  /** Problems the change would bring (a role the bot cannot give…), as sentences. */
  warnings: z.array(z.string()),
  /** Removals the circuit breaker would hold back for review. */
  wouldHold: z.number().int(),
  /** False when VRChat lists only part of the group: Auto Remove sees only the members listed. */
  complete: z.boolean(),
  /**
   * Roles an auto-role change stops managing, with how many members the old setting gave each to: the save
   * takes them back (`oldRoles` 'take') or leaves them ('keep'). Empty for other changes.
   */
  oldRoles: z.array(z.object({ roleId: z.string(), roleName: z.string(), members: z.number().int() })),
});
z.globalRegistry.add(changePreview, { id: 'ChangePreview' });
