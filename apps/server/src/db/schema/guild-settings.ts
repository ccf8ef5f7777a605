import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** An auto role replaced or cleared while the bot still manages its holders (see `retiredAutoRoles`). */
export interface RetiredAutoRole {
  roleId: string;
  /** The setting it was: the bot takes it from the members that setting gave it to. */
  rule: 'LinkedRole' | 'Plus18Role' | 'AgeVerifiedRole';
  at: string;
}

/** A server's Discord-tab settings: the roles the bot assigns automatically and the contact e-mail. */
export const guildSettings = pgTable('guild_settings', {
  guildId: text('guild_id').primaryKey(),
  ageVerifiedRoleId: text('age_verified_role_id'),
  ageVerifiedPlus18RoleId: text('age_verified_plus18_role_id'),
  linkedRoleId: text('linked_role_id'),
  /** Required by World Images, so the provider can reach the server about issues or reports. */
  contactEmail: text('contact_email'),
  /**
   * Auto roles changed away from with 'take back' chosen: the next sync records each holder the old setting gave
   * it to as a grant to take back (then clears the entry), so the old role does not stay on everyone unmanaged.
   */
  retiredAutoRoles: jsonb('retired_auto_roles').$type<RetiredAutoRole[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Counts the saves of the auto roles: a save names the version it was read at and is refused when another
   * manager saved since (no lost update). The contact e-mail, one value saved on its own, does not count.
   */
  version: integer('version').notNull().default(0),
});
