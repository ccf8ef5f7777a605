import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const ageVerificationValues = ['Unverified', 'Verified', 'Plus18'] as const;
export type AgeVerification = (typeof ageVerificationValues)[number];

/** A Discord account's link to one VRChat account; a VRChat account is linked to at most one Discord account. */
export const vrchatLinks = pgTable(
  'vrchat_links',
  {
    discordUserId: text('discord_user_id').primaryKey(),
    vrcUserId: text('vrc_user_id').notNull(),
    vrchatName: text('vrchat_name').notNull(),
    isVerified: boolean('is_verified').notNull().default(false),
    ageVerification: text('age_verification', { enum: ageVerificationValues })
      .notNull()
      .default('Unverified'),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('vrchat_links_vrc_user_uq').on(t.vrcUserId)],
);

/** The bio code proving a Discord user owns a VRChat account; stable until used. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    discordUserId: text('discord_user_id').notNull(),
    vrcUserId: text('vrc_user_id').notNull(),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.discordUserId, t.vrcUserId] })],
);

/**
 * Link changes waiting for the bot's role work (linked role, 18+ role, group sync). Written in the same
 * transaction as the change, so no change is lost; the role worker marks them processed.
 */
export const linkEvents = pgTable(
  'link_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    discordUserId: text('discord_user_id').notNull(),
    vrcUserId: text('vrc_user_id'),
    kind: text('kind', {
      enum: ['linked', 'verified', 'refreshed', 'unlinked', 'moved_away', 'invites_reset'],
    }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    index('link_events_pending_idx').on(t.processedAt, t.id),
    // The Members tab's link history of a page of members.
    index('link_events_user_idx').on(t.discordUserId),
    // Retention deletes processed events past LINK_EVENTS_RETENTION_DAYS in batches.
    index('link_events_created_idx').on(t.createdAt),
  ],
);

/** The link event kinds the Members tab counts as link changes (Link Count, Last Link Change). */
export const LINK_CHANGE_KINDS = ['linked', 'unlinked', 'moved_away'] as const;

/**
 * What retention removed of a member's link history: how many link changes (linked, unlinked, moved away)
 * the deleted `link_events` rows held and when the latest was, so the Members tab's Link Count and Last
 * Link Change stay exact once old events are gone.
 */
export const linkChangeSummaries = pgTable('link_change_summaries', {
  discordUserId: text('discord_user_id').primaryKey(),
  changes: integer('changes').notNull().default(0),
  lastChangedAt: timestamp('last_changed_at', { withTimezone: true }),
});

/** Group invites the sync has sent, so it does not invite the same person twice (reset by the user). */
export const groupInvites = pgTable(
  'group_invites',
  {
    discordUserId: text('discord_user_id').notNull(),
    groupId: text('group_id').notNull(),
    vrcUserId: text('vrc_user_id').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.discordUserId, t.groupId] })],
);
