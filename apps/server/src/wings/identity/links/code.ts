import { randomInt } from 'node:crypto';

// No 0/O/1/I/L so a code read off a screen and typed into a bio survives.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newVerificationCode(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `VRCL-${code}`;
}

/** Whether the bio carries the code; case and surrounding text do not matter. */
export function bioHasCode(bio: string | null | undefined, code: string): boolean {
  return Boolean(bio?.toUpperCase().includes(code.toUpperCase()));
}

/** Reads a VRChat user id from an id, a profile URL, or nothing. */
export function vrchatIdFrom(query: string): string | null {
  const match = query.trim().match(/(usr_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i);
  return match ? match[1].toLowerCase() : null;
}
