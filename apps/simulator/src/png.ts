import { deflateSync } from 'node:zlib';

/**
 * Placeholder pictures for both simulators (VRChat images, Discord CDN avatars and icons): a small
 * solid-colour PNG whose colour is derived from a seed text, so the same id always looks the same.
 */

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** The RGB colour solidPng paints for a seed (each channel 64–223, never black or white). */
export function seedColour(seed: string): [number, number, number] {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const [r, g, b] = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff].map((v) => 64 + (v % 160));
  return [r, g, b];
}

/** A solid RGB PNG whose colour is derived from the seed text. */
export function solidPng(seed: string, width: number, height: number): Buffer {
  return colourPng(seedColour(seed), width, height);
}

/** A solid RGB PNG of the given colour. */
export function colourPng(rgb: readonly [number, number, number], width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
