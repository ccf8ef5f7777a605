import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns.js';
import { worlds } from './worlds.js';

/**
 * Image bytes by content (SHA-256 of the stored bytes, hex): the same bytes uploaded twice, or by two servers,
 * are stored once. Rows are never rewritten; a rotation stores a new blob.
 */
export const imageBlobs = pgTable('image_blobs', {
  hash: text('hash').primaryKey(),
  /** image/png, image/jpeg, image/webp or image/gif, detected from the bytes. */
  contentType: text('content_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /**
   * The bytes, on PostgreSQL. Null on the embedded database: there they are a file under DATA_DIR/files
   * (wings/worlds/world-images/image-files.ts), out of PGlite's heap.
   */
  bytes: bytea('bytes'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A resized copy of a blob, made once on first request and kept (key: blob hash + the size asked for). */
export const imagePreviews = pgTable(
  'image_previews',
  {
    hash: text('hash')
      .notNull()
      .references(() => imageBlobs.hash, { onDelete: 'cascade' }),
    /** Longest side in pixels. */
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.size] })],
);

/** A server's image (the Server Images panel): a name over a blob. */
export const worldImages = pgTable(
  'world_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    imageHash: text('image_hash')
      .notNull()
      .references(() => imageBlobs.hash),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('world_images_guild_idx').on(t.guildId, t.createdAt)],
);

/**
 * A world's poster slot. `slotId` is the number worlds bake in (AtlasDetail.MetaData[].SlotId), unique per
 * world; `order` is the manager's drag order, renumbered from 0. The image may be cleared (null).
 */
export const worldImageSlots = pgTable(
  'world_image_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    worldId: uuid('world_id')
      .notNull()
      .references(() => worlds.id, { onDelete: 'cascade' }),
    slotId: integer('slot_id').notNull(),
    name: text('name').notNull().default(''),
    imageId: uuid('image_id').references(() => worldImages.id, { onDelete: 'set null' }),
    maxDimension: integer('max_dimension').notNull().default(512),
    order: integer('order').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('world_image_slots_world_slot_idx').on(t.worldId, t.slotId)],
);

/**
 * One generated atlas image of a world. Two variations (0/1) alternate at each generation so that VRChat's
 * image cache never serves an old atlas under a new address; the previous variation stays until overwritten.
 */
export const worldAtlases = pgTable(
  'world_atlases',
  {
    worldId: uuid('world_id')
      .notNull()
      .references(() => worlds.id, { onDelete: 'cascade' }),
    variation: integer('variation').notNull(),
    atlasIndex: integer('atlas_index').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** SHA-256 of the PNG bytes: the ETag. */
    hash: text('hash').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.variation, t.atlasIndex] })],
);

/**
 * A world's current atlas state: the AtlasDetail its data carries (`metadata` = MetaData, top-left origin) and
 * the generation in progress, if any (one at a time per world).
 */
export const worldAtlasState = pgTable('world_atlas_state', {
  worldId: uuid('world_id')
    .primaryKey()
    .references(() => worlds.id, { onDelete: 'cascade' }),
  /** The variation the world data points at; null before the first generation. */
  variation: integer('variation'),
  metadata: jsonb('metadata')
    .$type<{ SlotId: number; AtlasIndex: number; X: number; Y: number; Width: number; Height: number }[]>()
    .notNull()
    .default([]),
  lastGeneration: timestamp('last_generation', { withTimezone: true }),
  /** 'idle' | 'queued' | 'running' | 'failed' */
  status: text('status').notNull().default('idle'),
  /** 0–100 while running. */
  progress: integer('progress').notNull().default(0),
  /** The last failure's sentence, shown as 'Error generating atlas'. */
  error: text('error'),
  requestedAt: timestamp('requested_at', { withTimezone: true }),
  requestedBy: text('requested_by'),
  /**
   * What the current atlases were made from (a hash of each slot's id, image, size; atlas-inputs.ts): when the
   * slots now differ, the atlases are out of date. Null before the first generation with it.
   */
  sourceStamp: text('source_stamp'),
});
