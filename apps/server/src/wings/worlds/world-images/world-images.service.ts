import { and, count, desc, eq, sql } from 'drizzle-orm';
import { imageBlobs, worldImages } from '../../../db/schema/index.js';
import { type Actor, actorId } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, missing } from '../../../kernel/errors.js';
import { rowOrMissing } from '../../../kernel/rows.js';
import { requireGuildPermission } from '../../access/index.js';
import { guildSettingsOf } from '../../community/index.js';
import { PREVIEW_SIZE, readUpload, rotateQuarter } from './image-content.js';
import {
  blobBytes,
  dropBlobIfUnused,
  prepareBlobBytes,
  putBlob,
  putPreview,
  removeBlobFileIfDropped,
  scaledEtag,
  scaledImage,
} from './image-store.js';
import { withImageSlot } from './image-work.js';
import { MAX_IMAGE_NAME_LENGTH } from './world-images.schemas.js';

export const IMAGE_NOT_FOUND = 'Image not found.';
export const CONTACT_EMAIL_REQUIRED = 'Add a contact e-mail for this server before uploading images.';
export const IMAGE_CHANGED = 'The image changed while it was being turned. Try again.';
export const tooManyImages = (max: number) =>
  `This server already has ${max} images. Delete some before uploading more.`;

type ImageRow = typeof worldImages.$inferSelect;

export const toWorldImage = (row: ImageRow) => ({
  id: row.id,
  name: row.name,
  width: row.width,
  height: row.height,
  imageHash: row.imageHash,
});

/** An image's name from an uploaded file's name: no folders, no control characters, at most 100 characters. */
export function imageNameOf(fileName: string | undefined): string {
  const base = (fileName ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(0, MAX_IMAGE_NAME_LENGTH).trim() || 'Untitled image';
}

async function findImage(ctx: AppContext, guildId: string, imageId: string): Promise<ImageRow> {
  const where = and(eq(worldImages.guildId, guildId), eq(worldImages.id, imageId));
  return rowOrMissing(ctx.db, worldImages, where, IMAGE_NOT_FOUND);
}

export async function listImages(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewImages');
  const rows = await ctx.db
    .select()
    .from(worldImages)
    .where(eq(worldImages.guildId, guildId))
    .orderBy(desc(worldImages.createdAt), desc(worldImages.id));
  return { images: rows.map(toWorldImage) };
}

async function imageCount(ctx: AppContext, guildId: string): Promise<number> {
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(worldImages)
    .where(eq(worldImages.guildId, guildId));
  return n;
}

/**
 * Checks that precede reading an upload (so a refused caller sends no 10 MB first): ManageImages, a contact
 * e-mail on file (whoever hosts the images must be reachable about them), room for one more image.
 */
export async function prepareUpload(ctx: AppContext, actor: Actor, guildId: string): Promise<void> {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  const settings = await guildSettingsOf(ctx.db, guildId);
  if (!settings?.contactEmail) throw conflict(CONTACT_EMAIL_REQUIRED);
  const { maxPerGuild } = ctx.config.worldImages;
  if ((await imageCount(ctx, guildId)) >= maxPerGuild) throw conflict(tooManyImages(maxPerGuild));
}

/**
 * Stores an uploaded file as a server image: blob, preview, row and audit entry in one transaction. The same
 * bytes uploaded again to the same server answer the image already there (`created: false`).
 */
export async function uploadImage(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  file: { name: string | undefined; path: string },
): Promise<{ image: ReturnType<typeof toWorldImage>; created: boolean }> {
  const stored = await readUpload(file.path, ctx.config.worldImages);
  const { maxPerGuild } = ctx.config.worldImages;
  const fileDir = ctx.database.fileDir;
  await prepareBlobBytes(fileDir, stored);
  return ctx.db.transaction(async (tx) => {
    // Serialised per server: two uploads at once cannot both pass the limit or both add the same bytes.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`world_images:${guildId}`}))`);
    const [existing] = await tx
      .select()
      .from(worldImages)
      .where(and(eq(worldImages.guildId, guildId), eq(worldImages.imageHash, stored.hash)))
      .limit(1);
    if (existing) return { image: toWorldImage(existing), created: false };
    const [{ n }] = await tx.select({ n: count() }).from(worldImages).where(eq(worldImages.guildId, guildId));
    if (n >= maxPerGuild) throw conflict(tooManyImages(maxPerGuild));
    await putBlob(tx, stored, fileDir);
    await putPreview(tx, stored.hash, stored.preview);
    const [row] = await tx
      .insert(worldImages)
      .values({
        guildId,
        name: imageNameOf(file.name),
        imageHash: stored.hash,
        width: stored.width,
        height: stored.height,
        createdBy: actorId(actor),
      })
      .returning();
    await audit(tx, {
      action: 'world_image.upload',
      actor,
      guildId,
      targetId: row.id,
      details: { name: row.name, width: row.width, height: row.height, hash: row.imageHash },
    });
    return { image: toWorldImage(row), created: true };
  });
}

/** Turns an image a quarter: a new blob (by hash), the row pointing at it, width and height swapped. */
export async function rotateImage(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  imageId: string,
  direction: 'Clockwise' | 'CounterClockwise',
) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  const row = await findImage(ctx, guildId, imageId);
  const fileDir = ctx.database.fileDir;
  const [blob] = await ctx.db
    .select({ contentType: imageBlobs.contentType })
    .from(imageBlobs)
    .where(eq(imageBlobs.hash, row.imageHash));
  const bytes = await blobBytes(ctx.db, fileDir, row.imageHash);
  if (!blob || !bytes) throw missing(IMAGE_NOT_FOUND);
  const turned = await withImageSlot(() => rotateQuarter(bytes, blob.contentType, direction));
  await prepareBlobBytes(fileDir, turned);
  const updated = await ctx.db.transaction(async (tx) => {
    await putBlob(tx, turned, fileDir);
    const [after] = await tx
      .update(worldImages)
      .set({ imageHash: turned.hash, width: turned.width, height: turned.height })
      .where(and(eq(worldImages.id, imageId), eq(worldImages.imageHash, row.imageHash)))
      .returning();
    // Another turn or a delete came first: this one was made from bytes that are no longer the image's.
    if (!after) throw conflict(IMAGE_CHANGED);
    await dropBlobIfUnused(tx, row.imageHash);
    await audit(tx, {
      action: 'world_image.rotate',
      actor,
      guildId,
      targetId: imageId,
      details: { name: row.name, rotation: direction, before: row.imageHash, after: turned.hash },
    });
    return after;
  });
  await removeBlobFileIfDropped(ctx.db, fileDir, row.imageHash);
  return toWorldImage(updated);
}

/** Deletes an image; slots showing it are cleared (FK set null); its bytes go when nothing else uses them. */
export async function deleteImage(ctx: AppContext, actor: Actor, guildId: string, imageId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ManageImages');
  const hash = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(worldImages)
      .where(and(eq(worldImages.guildId, guildId), eq(worldImages.id, imageId)))
      .returning();
    if (!row) throw missing(IMAGE_NOT_FOUND);
    await dropBlobIfUnused(tx, row.imageHash);
    await audit(tx, {
      action: 'world_image.delete',
      actor,
      guildId,
      targetId: imageId,
      details: { name: row.name, hash: row.imageHash },
    });
    return row.imageHash;
  });
  await removeBlobFileIfDropped(ctx.db, ctx.database.fileDir, hash);
}

/** What an image route sends: an ETag, and the bytes only when the caller's copy is not that one. */
export interface ImageAnswer {
  etag: string;
  /** The `?v=` that names exactly these bytes: an address carrying it may be cached for good. */
  version: string;
  contentType: string;
  bytes: () => Promise<Buffer>;
}

/** The image's stored bytes (ETag: the content hash). */
export async function imageFile(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  imageId: string,
): Promise<ImageAnswer> {
  await requireGuildPermission(ctx, actor, guildId, 'ViewImages');
  const row = await findImage(ctx, guildId, imageId);
  const [blob] = await ctx.db
    .select({ contentType: imageBlobs.contentType })
    .from(imageBlobs)
    .where(eq(imageBlobs.hash, row.imageHash));
  if (!blob) throw missing(IMAGE_NOT_FOUND);
  return {
    etag: `"${row.imageHash}"`,
    version: row.imageHash,
    contentType: blob.contentType,
    bytes: async () => {
      const bytes = await blobBytes(ctx.db, ctx.database.fileDir, row.imageHash);
      if (!bytes) throw missing(IMAGE_NOT_FOUND);
      return bytes;
    },
  };
}

/** The image's preview (longest side 256, PNG), made once and kept. */
export async function imagePreview(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  imageId: string,
): Promise<ImageAnswer> {
  await requireGuildPermission(ctx, actor, guildId, 'ViewImages');
  const row = await findImage(ctx, guildId, imageId);
  const blob = { hash: row.imageHash, width: row.width, height: row.height };
  return { ...scaledAnswer(ctx, blob, PREVIEW_SIZE), version: row.imageHash };
}

/** An image scaled to at most `maxDimension`, as an ImageAnswer. */
export function scaledAnswer(
  ctx: AppContext,
  blob: { hash: string; width: number; height: number },
  maxDimension: number,
): ImageAnswer {
  return {
    etag: scaledEtag(blob, maxDimension),
    version: `${blob.hash}-${maxDimension}`,
    contentType: 'image/png',
    bytes: async () => {
      const bytes = await scaledImage(ctx.db, ctx.database.fileDir, blob, maxDimension);
      if (!bytes) throw missing(IMAGE_NOT_FOUND);
      return bytes;
    },
  };
}
