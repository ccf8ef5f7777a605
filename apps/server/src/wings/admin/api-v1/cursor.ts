import { invalid } from '../../../kernel/errors.js';

export const BAD_CURSOR = 'cursor is not valid: pass the nextCursor of the previous page.';

/**
 * Opaque keyset cursors: the last row's sort key, base64url-encoded with a kind tag so a cursor of one
 * list is refused by another. Callers must not build them; the encoding may change.
 */
export function encodeCursor(kind: string, key: string): string {
  return Buffer.from(`${kind}:${key}`, 'utf8').toString('base64url');
}

/** The sort key a cursor carries; 400 when it is not one this list made. */
export function decodeCursor(kind: string, cursor: string, valid: RegExp): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const key = text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : '';
  if (!valid.test(key)) throw invalid(BAD_CURSOR);
  return key;
}
