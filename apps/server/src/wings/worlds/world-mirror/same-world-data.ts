import { decodeWorldBody } from '../worlds/codec/lzw.js';

/** The document without its build time: what a world would read that can actually differ. */
function contentOf(body: string): string | null {
  try {
    const doc = JSON.parse(decodeWorldBody(body)) as Record<string, unknown>;
    delete doc.LastUpdated;
    return JSON.stringify(doc);
  } catch {
    return null;
  }
}

/**
 * True when two world bodies say the same thing except when they were built (`LastUpdated` moves on every
 * rebuild): the mirror then keeps the body it has, so a run with no real change makes no commit. Bodies
 * that do not parse are compared as they are.
 */
export function sameWorldData(mirrored: string, fresh: string): boolean {
  if (mirrored === fresh) return true;
  const a = contentOf(mirrored);
  return a !== null && a === contentOf(fresh);
}
