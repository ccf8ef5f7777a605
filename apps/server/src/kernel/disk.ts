import { type FileHandle, open } from 'node:fs/promises';

/** The answer when a write found the disk full (the data disk, or the database's). */
export const DISK_FULL = "The server's disk is full.";
/** What a start that found the disk full prints before it exits 1. */
export const DISK_FULL_AT_START = "The server's disk is full: free some space and start it again.";

/** ENOSPC and EDQUOT (a quota), PostgreSQL's disk_full (53100). */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
/** The embedded database's file system (Emscripten) numbers its errors its own way: ENOSPC is 51 there. */
const EMSCRIPTEN_ENOSPC = 51;

/**
 * Whether a failure is a full disk, looking through the causes Drizzle wraps driver errors in (and, for the
 * embedded database, at PostgreSQL's own words, which it reports without a code).
 */
export function isDiskFull(err: unknown): boolean {
  // Not only Errors: the embedded database's ErrnoError is a plain object.
  type Failure = { code?: unknown; name?: unknown; errno?: unknown; message?: unknown; cause?: unknown };
  for (let e = err as Failure | undefined, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (typeof e.code === 'string' && DISK_FULL_CODES.has(e.code)) return true;
    if (e.name === 'ErrnoError' && e.errno === EMSCRIPTEN_ENOSPC) return true;
    if (typeof e.message === 'string' && /No space left on device|could not extend file/i.test(e.message))
      return true;
    e = e.cause as Failure | undefined;
  }
  return false;
}

/**
 * Where uploads are written to the data disk: one seam, so tests can make the disk full (ENOSPC) without
 * filling one.
 */
export const diskWrites = {
  open: (path: string, flags: string): Promise<FileHandle> => open(path, flags),
  async write(handle: FileHandle, chunk: Buffer): Promise<void> {
    await handle.write(chunk);
  },
};
