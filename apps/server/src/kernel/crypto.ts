import * as crypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM; output is base64(iv | tag | ciphertext). */
export function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function decrypt(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Decrypts with the first of `keys` that opens `sealed` (the current key, then a previous one); null if none. */
export function decryptWithAny(keys: readonly (Buffer | undefined)[], sealed: string): string | null {
  for (const key of keys) {
    if (!key) continue;
    try {
      return decrypt(key, sealed);
    } catch {
      // Sealed with another key (or damaged): try the next one.
    }
  }
  return null;
}

/** Node's one-shot digest (20.12 and later): no Hash object per call, which a signed-in request pays twice. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function sha256(value: string): string {
  return oneShot ? oneShot('sha256', value, 'hex') : createHash('sha256').update(value).digest('hex');
}

/** A URL-safe random secret. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
