import { vrcError } from './errors.js';

type Query = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function str(query: unknown, name: string): string | undefined {
  return first((query as Query)[name]);
}

export function bool(query: unknown, name: string): boolean {
  return str(query, name) === 'true';
}

/** `n` (1–100, default 60) and `offset` (≥ 0), with the API's own complaint texts. */
export function paging(query: unknown): { n: number; offset: number } {
  const rawN = str(query, 'n');
  const rawOffset = str(query, 'offset');
  const n = rawN === undefined || rawN === '' ? 60 : Number(rawN);
  if (!Number.isInteger(n) || n < 1) throw vrcError(400, `n must be a positive integer: '${rawN}'`);
  if (n > 100) throw vrcError(400, `n=${n} is much too high. implement paging you savages.`);
  const offset = rawOffset === undefined || rawOffset === '' ? 0 : Number(rawOffset);
  if (!Number.isInteger(offset) || offset < 0)
    throw vrcError(400, `offset must be a non-negative integer: '${rawOffset}'`);
  return { n, offset };
}

export const page = <T>(items: T[], { n, offset }: { n: number; offset: number }): T[] =>
  items.slice(offset, offset + n);

export const csv = (query: unknown, name: string): string[] | undefined =>
  str(query, name)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
