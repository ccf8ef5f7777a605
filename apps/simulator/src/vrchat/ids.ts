import { createHash, randomUUID } from 'node:crypto';

/**
 * A UUID v4-shaped string derived from a seed text, so seeded ids are identical on every run and
 * every machine (the product's demo mode and tests refer to them by value).
 */
export function stableUuid(seed: string): string {
  const h = createHash('sha256').update(`vrchat-sim:${seed}`).digest('hex');
  const variant = ((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const stableId = (prefix: string, seed: string): string => `${prefix}_${stableUuid(seed)}`;

/** Ids minted at runtime (sessions, new memberships, audit entries) need no determinism. */
export const newId = (prefix: string): string => `${prefix}_${randomUUID()}`;
