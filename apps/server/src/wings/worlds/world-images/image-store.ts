import { and, eq, sql } from 'drizzle-orm';
import type { Db, Queryable, Tx } from '../../../db/client.js';
import { imageBlobs, imagePreviews, worldImages } from '../../../db/schema/index.js';
import { renderScaled, scaledSize } from './image-content.js';
import { readImageFile, removeImageFileIfOrphaned, writeImageFile } from './image-files.js';
import { withImageSlot } from './image-work.js';

/**
 * Image bytes by content hash. A blob is written once (ON CONFLICT DO NOTHING: the same bytes are the same
 * blob) and dropped when no server image uses it any more; its previews go with it (FK cascade).
 */
export interface BlobInput {
  hash: string;
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Before the transaction that stores a blob: on the embedded database (`fileDir`) its bytes go to a file,
 * so they never enter PGlite's heap. On PostgreSQL nothing happens here (the row holds the bytes).
 */
export async function prepareBlobBytes(fileDir: string | undefined, blob: BlobInput): Promise<void> {
  if (fileDir) await writeImageFile(fileDir, blob.hash, blob.bytes);
}

/** After a transaction that may have dropped a blob: its file goes too when no row names it any more. */
export async function removeBlobFileIfDropped(db: Db, fileDir: string | undefined, hash: string) {
  if (!fileDir) return;
  const [row] = await db.select({ hash: imageBlobs.hash }).from(imageBlobs).where(eq(imageBlobs.hash, hash));
  if (!row) await removeImageFileIfOrphaned(fileDir, hash);
}

/**
 * Stores a blob inside the caller's transaction and holds it (FOR KEY SHARE) so a concurrent drop of the
 * same, until now unused, blob cannot remove it before the row pointing at it is written.
 */
export async function putBlob(tx: Tx, blob: BlobInput, fileDir: string | undefined): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const { hash, contentType, width, height } = blob;
    // With a file (prepareBlobBytes), the row holds no bytes.
    const bytes = fileDir ? null : blob.bytes;
    await tx.insert(imageBlobs).values({ hash, bytes, contentType, width, height }).onConflictDoNothing();
    const held = await tx
      .select({ hash: imageBlobs.hash })
      .from(imageBlobs)
      .where(eq(imageBlobs.hash, blob.hash))
      .for('key share');
    if (held.length) return;
  }
  throw new Error(`image blob ${blob.hash} vanished while being stored`);
}

/** Drops a blob no server image points at any more. Losing a race to a new user of it keeps it. */
export async function dropBlobIfUnused(tx: Tx, hash: string): Promise<void> {
  try {
    await tx.transaction(async (savepoint) => {
      await savepoint
        .delete(imageBlobs)
        .where(
          and(
            eq(imageBlobs.hash, hash),
            sql`not exists (select 1 from ${worldImages} where ${worldImages.imageHash} = ${hash})`,
          ),
        );
    });
  } catch (err) {
    // 23503: an upload of the same bytes committed a row pointing at it meanwhile; the blob stays.
    if (!isForeignKeyViolation(err)) throw err;
  }
}

/** PostgreSQL's foreign_key_violation, bare or wrapped by drizzle. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23503' || e?.cause?.code === '23503';
}

export async function putPreview(db: Queryable, hash: string, preview: { size: number; bytes: Buffer }) {
  await db
    .insert(imagePreviews)
    .values({ hash, size: preview.size, contentType: 'image/png', bytes: preview.bytes })
    .onConflictDoNothing();
}

/** A blob's bytes: from its row, or from its file when the row holds none (embedded database). */
export async function blobBytes(
  db: Queryable,
  fileDir: string | undefined,
  hash: string,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: imageBlobs.bytes })
    .from(imageBlobs)
    .where(eq(imageBlobs.hash, hash));
  if (!row) return undefined;
  if (row.bytes) return row.bytes;
  return fileDir ? readImageFile(fileDir, hash) : undefined;
}

/**
 * The image scaled to at most `maxDimension` (the slot rule) as a PNG: made on first request, then read from
 * image_previews. No transaction is held while sharp works. Undefined when the blob is gone.
 */
export async function scaledImage(
  db: Db,
  fileDir: string | undefined,
  blob: { hash: string; width: number; height: number },
  maxDimension: number,
): Promise<Buffer | undefined> {
  const size = scaledSize(blob.width, blob.height, maxDimension);
  const [cached] = await db
    .select({ bytes: imagePreviews.bytes })
    .from(imagePreviews)
    .where(and(eq(imagePreviews.hash, blob.hash), eq(imagePreviews.size, size)));
  if (cached) return cached.bytes;
  const bytes = await blobBytes(db, fileDir, blob.hash);
  if (!bytes) return undefined;
  const preview = await withImageSlot(() => renderScaled(bytes, blob.width, blob.height, maxDimension));
  try {
    await putPreview(db, blob.hash, preview);
  } catch (err) {
    // The blob was dropped meanwhile (23503): answer what was made, keep nothing.
    if (!isForeignKeyViolation(err)) throw err;
  }
  return preview.bytes;
}

/** The ETag of a scaled image: the blob's hash and the longest side. */
export const scaledEtag = (blob: { hash: string; width: number; height: number }, maxDimension: number) =>
  `"${blob.hash}-${scaledSize(blob.width, blob.height, maxDimension)}"`;
