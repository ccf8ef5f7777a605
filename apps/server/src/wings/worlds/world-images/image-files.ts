import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * World image bytes as files, on the embedded database only (Database.fileDir, under DATA_DIR): PGlite's heap
 * lives in the server process and never shrinks, so 10 MB blobs would stay in memory for good. On PostgreSQL
 * the bytes stay in image_blobs, which every process on every host reads.
 *
 * Files are named by content hash, so writing one twice is harmless. An upload writes its file before the
 * transaction that adds the row; a file whose row is gone is removed once it is a minute old (an upload of
 * the same bytes in progress has just written it again).
 */
const pathOf = (dir: string, hash: string) => join(dir, 'images', hash.slice(0, 2), hash);

/** Writes the bytes of a blob (atomically: a reader never sees half a file). */
export async function writeImageFile(dir: string, hash: string, bytes: Buffer): Promise<void> {
  const path = pathOf(dir, hash);
  await mkdir(join(path, '..'), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

export async function readImageFile(dir: string, hash: string): Promise<Buffer | undefined> {
  try {
    return await readFile(pathOf(dir, hash));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** How old a file without a row must be before it is removed (an upload writes it before its row). */
const ORPHAN_AGE_MS = 60_000;

/** Removes a blob's file after its row was dropped, unless it was (re)written within the last minute. */
export async function removeImageFileIfOrphaned(dir: string, hash: string): Promise<void> {
  const path = pathOf(dir, hash);
  try {
    if (Date.now() - (await stat(path)).mtimeMs < ORPHAN_AGE_MS) return;
    await rm(path, { force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
