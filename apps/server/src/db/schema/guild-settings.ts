import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A server's Discord-tab settings: the roles the bot assigns automatically and the contact e-mail. */
export const guildSettings = pgTable('guild_settings', {
  guildId: text('guild_id').primaryKey(),
  ageVerifiedRoleId: text('age_verified_role_id'),
  ageVerifiedPlus18RoleId: text('age_verified_plus18_role_id'),
  linkedRoleId: text('linked_role_id'),
  /** Required by World Images, so the provider can reach the server about issues or reports. */
  contactEmail: text('contact_email'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Counts the saves of the auto roles: a save names the version it was read at and is refused when another
   * manager saved since (no lost update). The contact e-mail, one value saved on its own, does not count.
   */
  version: integer('version').notNull().default(0),
});
