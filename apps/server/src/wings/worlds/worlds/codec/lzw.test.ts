import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeWorldBody,
  encodeWorldBody,
  fromTransportText,
  lzwCompress,
  lzwDecompress,
  toTransportText,
} from './lzw.js';

const END_CODE = 16383;
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A deliberately naive encoder straight from the spec (string keys, arrays), used as an oracle. */
function referenceCodes(input: Uint8Array): number[] {
  const dictionary = new Map<string, number>();
  for (let b = 0; b < 256; b++) dictionary.set(String.fromCharCode(b), b);
  const codes: number[] = [];
  let next = 256;
  let w = '';
  for (const byte of input) {
    const wc = w + String.fromCharCode(byte);
    if (dictionary.has(wc)) {
      w = wc;
    } else {
      codes.push(dictionary.get(w)!);
      if (next <= 16382) dictionary.set(wc, next++);
      w = String.fromCharCode(byte);
    }
  }
  if (w !== '') codes.push(dictionary.get(w)!);
  return codes;
}

/** Packs codes as 14-bit MSB-first fields via a bit string: slow but obviously right. */
function pack(codes: number[]): Uint8Array {
  let bits = codes.map((c) => c.toString(2).padStart(14, '0')).join('');
  bits += '0'.repeat((8 - (bits.length % 8)) % 8);
  const bytes = new Uint8Array(bits.length / 8);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  return bytes;
}

/** Reads every whole 14-bit field of a stream (including the end and padding codes). */
function unpack(bytes: Uint8Array): { codes: number[]; leftoverBits: string } {
  const bits = Array.from(bytes, (b) => b.toString(2).padStart(8, '0')).join('');
  const codes: number[] = [];
  let pos = 0;
  for (; pos + 14 <= bits.length; pos += 14) codes.push(Number.parseInt(bits.slice(pos, pos + 14), 2));
  return { codes, leftoverBits: bits.slice(pos) };
}

/** Compares long sequences reporting only the first difference: a full diff of ~500 KB stalls the reporter. */
function expectSame(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  if (at === actual.length && at === expected.length) return;
  const around = (a: ArrayLike<number>) => Array.from(a).slice(Math.max(0, at - 3), at + 3);
  expect({ at, length: actual.length, around: around(actual) }).toEqual({
    at,
    length: expected.length,
    around: around(expected),
  });
}

/** Deterministic pseudo-random numbers (mulberry32), so the big test is reproducible. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ~300 KB of random words: varied enough to create far more than the 16127 possible entries. */
function randomWords(bytes: number): string {
  const random = prng(42);
  const letters = 'abcdefghijklmnopqrstuvwxyzäöüßéñ';
  const words: string[] = [];
  let length = 0;
  while (length < bytes) {
    let word = '';
    const size = 2 + Math.floor(random() * 9);
    for (let i = 0; i < size; i++) word += letters[Math.floor(random() * letters.length)];
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/** A prefix of the order-2 de Bruijn sequence over 0..alphabet-1: every consecutive pair is distinct. */
function distinctPairs(alphabet: number, length: number): number[] {
  const sequence: number[] = [];
  for (let a = 0; a < alphabet && sequence.length < length; a++) {
    sequence.push(a);
    for (let b = a + 1; b < alphabet; b++) sequence.push(a, b);
  }
  return sequence.slice(0, length);
}

const smallAlphabetBytes = fc
  .array(fc.constantFrom(0x41, 0x42, 0x43), { maxLength: 3000, size: 'max' })
  .map((a) => Uint8Array.from(a));

describe('lzwCompress', () => {
  it('encodes "ABABABA" as 65, 66, 256, 258, end, padding packed 14 bits MSB first', () => {
    // Codes 65 66 256 258 16383 0 = 84 bits, zero-padded to 88 bits = 11 bytes (worked out by hand).
    const expected = [0x01, 0x04, 0x04, 0x20, 0x40, 0x01, 0x02, 0xff, 0xfc, 0x00, 0x00];
    expect(Array.from(lzwCompress(utf8('ABABABA')))).toEqual(expected);
    expect(unpack(lzwCompress(utf8('ABABABA'))).codes).toEqual([65, 66, 256, 258, END_CODE, 0]);
  });

  it('encodes empty input as just the end code and the padding code', () => {
    const out = lzwCompress(new Uint8Array());
    // 16383, 0 = 28 bits -> 4 bytes: 11111111 11111100 00000000 0000|0000
    expect(Array.from(out)).toEqual([0xff, 0xfc, 0x00, 0x00]);
    expect(lzwDecompress(out)).toEqual(new Uint8Array());
  });

  it('matches the reference encoder bit for bit, and is (n + 2) * 14 bits rounded up to bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 3000, size: 'max' }), smallAlphabetBytes), (input) => {
        const codes = referenceCodes(input);
        const out = lzwCompress(input);
        expectSame(out, pack([...codes, END_CODE, 0]));
        expect(out.length).toBe(Math.ceil(((codes.length + 2) * 14) / 8));
      }),
    );
  });

  it('ends every stream with the end code, then a 0 code, then fewer than 8 zero bits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500, size: 'max' }), (input) => {
        const { codes, leftoverBits } = unpack(lzwCompress(input));
        expect(codes.slice(-2)).toEqual([END_CODE, 0]);
        expect(codes.slice(0, -2)).not.toContain(END_CODE);
        expect(leftoverBits).toMatch(/^0{0,7}$/);
      }),
    );
  });
});

describe('lzwDecompress', () => {
  it('round-trips random bytes and highly repetitive bytes (KwKwK cases)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 5000, size: 'max' }), smallAlphabetBytes), (input) => {
        expectSame(lzwDecompress(lzwCompress(input)), input);
      }),
    );
  });

  it('decodes a stream packed by the reference, including the KwKwK code 258 of "ABABABA"', () => {
    expect(new TextDecoder().decode(lzwDecompress(pack([65, 66, 256, 258, END_CODE, 0])))).toBe('ABABABA');
    expect(new TextDecoder().decode(lzwDecompress(pack([65, 256, 257, END_CODE, 0])))).toBe('AAAAAA');
  });

  it('fills the dictionary from ~300 KB of random words and still matches the reference and round-trips', () => {
    const input = utf8(randomWords(300_000));
    const codes = referenceCodes(input);
    // Far more codes than the 16127 entries that fit, so most of the stream is written with a full dictionary.
    expect(codes.length).toBeGreaterThan(16_128 + 10_000);
    const highest = codes.reduce((a, b) => Math.max(a, b));
    expect(highest).toBeGreaterThan(16_300);
    expect(highest).toBeLessThanOrEqual(16_382);
    // Codes emitted long after the dictionary filled still reference early entries: nothing was reset.
    expect(codes.slice(20_000).some((c) => c > 256 && c < 1000)).toBe(true);

    const out = lzwCompress(input);
    expectSame(out, pack([...codes, END_CODE, 0]));
    expectSame(lzwDecompress(out), input);
  });

  it('makes 16382 the last entry, adds none after it and never resets (hand-derived codes)', () => {
    // Bytes 0..254 whose consecutive pairs are all distinct (a de Bruijn order), so the first 16128 bytes are
    // written as 16127 literals + 1 pending, creating exactly the entries 256..16382 = pair(i, i + 1).
    const prefix = distinctPairs(255, 16_128);
    const [b0, b1] = prefix;
    const [y, z] = prefix.slice(-2); // pair (y, z) is entry 16382
    // 255 never occurs in the prefix, so no entry contains it: it separates the probes below.
    const input = Uint8Array.from([...prefix, 255, y, z, 255, b0, b1, 255, z, 255]);
    const expected = [
      ...prefix.slice(0, -1),
      z, // (z, 255) would be a new entry, but the dictionary is full
      255,
      16382, // the last entry exists and is used
      255,
      256, // the first entry still means (b0, b1): no reset
      255,
      z, // (255, z) and (z, 255) were never added once full
      255,
    ];
    const out = lzwCompress(input);
    expectSame(unpack(out).codes, [...expected, END_CODE, 0]);
    expectSame(out, pack([...expected, END_CODE, 0]));
    expectSame(lzwDecompress(out), input);
  });

  it('stops at the end code and ignores anything after it', () => {
    const stream = pack([65, 66, END_CODE, 0, 67, 68]);
    expect(new TextDecoder().decode(lzwDecompress(stream))).toBe('AB');
  });

  it('stops without error when input runs out mid-code: the tail is lost unless whole codes arrive', () => {
    const full = lzwCompress(utf8('ABABABA'));
    // 4 data codes = 56 bits = exactly 7 bytes: without end or padding codes the data still survives ...
    expect(new TextDecoder().decode(lzwDecompress(full.slice(0, 7)))).toBe('ABABABA');
    // ... but cut into the last data code and it is silently dropped, as in the SDK.
    expect(new TextDecoder().decode(lzwDecompress(full.slice(0, 6)))).toBe('ABAB');
  });

  it('rejects a code that is not yet in the dictionary', () => {
    expect(() => lzwDecompress(pack([65, 300, END_CODE, 0]))).toThrow(/Corrupt LZW stream/);
    expect(() => lzwDecompress(pack([256, END_CODE, 0]))).toThrow(/Corrupt LZW stream/);
  });
});

describe('transport text', () => {
  it('maps every byte to U+0000..U+00FF and back', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = toTransportText(all);
    expect(text.length).toBe(256);
    expect(Array.from(text, (c) => c.charCodeAt(0))).toEqual(Array.from(all));
    expect(fromTransportText(text)).toEqual(all);
  });

  it('reads the low byte of each UTF-16 code unit', () => {
    expect(Array.from(fromTransportText('\u0141\u00ff\u1200'))).toEqual([0x41, 0xff, 0x00]);
  });

  it('handles inputs larger than one fromCharCode chunk', () => {
    const big = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) & 0xff);
    expectSame(fromTransportText(toTransportText(big)), big);
  });
});

describe('world body', () => {
  const document = JSON.stringify({
    Version: 1,
    LastUpdated: '2026-01-01T00:00:00.000Z',
    MemberCount: 3,
    GuildUsers: { 'Ältester 長老 🛡️': ['Zoë', '山田太郎', 'Ωmega 🚀'] },
  });

  it('serves plain JSON unchanged when not compressing', () => {
    expect(encodeWorldBody(document, false)).toBe(document);
    expect(decodeWorldBody(document)).toBe(document);
  });

  it('round-trips UTF-8 JSON with non-ASCII text through the compressed body', () => {
    expect(decodeWorldBody(encodeWorldBody(document, true))).toBe(document);
    fc.assert(
      fc.property(fc.json({ stringUnit: 'grapheme' }), (json) => {
        expect(decodeWorldBody(encodeWorldBody(json, true))).toBe(json);
        expect(encodeWorldBody(json, false)).toBe(json);
      }),
    );
  });

  it('never starts a compressed body with "{", so the SDK knows to decompress it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.json()), (text) => {
        const body = encodeWorldBody(text, true);
        expect(body[0]).not.toBe('{');
        // First byte is the top bits of a literal code (0..3), or 0xff for the end code of an empty body.
        expect(body.charCodeAt(0) <= 3 || body.charCodeAt(0) === 0xff).toBe(true);
      }),
    );
    expect(encodeWorldBody('{"Version":1}', true)[0]).not.toBe('{');
  });

  it('only ever produces characters U+0000..U+00FF in a compressed body', () => {
    const body = encodeWorldBody(document, true);
    expect([...body].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
  });
});
