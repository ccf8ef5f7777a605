import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * Avatar, profile, icon and banner images. Real VRChat serves these from its file API and CDN; the
 * simulator serves a small solid-colour PNG per id so the product's pages have something to show.
 */
export const imagePaths = {
  avatarImage: (userId: string) => `/img/vrchat/avatar/${userId}/image.png`,
  avatarThumbnail: (userId: string) => `/img/vrchat/avatar/${userId}/thumbnail.png`,
  profilePic: (userId: string) => `/img/vrchat/profile/${userId}/image.png`,
  groupIcon: (groupId: string) => `/img/vrchat/group/${groupId}/icon.png`,
  groupBanner: (groupId: string) => `/img/vrchat/group/${groupId}/banner.png`,
};

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

/** A solid RGB PNG whose colour is derived from the seed text. */
export function solidPng(seed: string, width: number, height: number): Buffer {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const rgb = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff].map((v) => 64 + (v % 160));
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

export function registerImageRoutes(app: FastifyInstance): void {
  const sizes: Record<string, [number, number]> = {
    image: [128, 96],
    thumbnail: [64, 48],
    icon: [64, 64],
    banner: [192, 64],
  };
  app.get<{ Params: { kind: string; id: string; file: string } }>(
    '/img/vrchat/:kind/:id/:file',
    async (req, reply) => {
      const { kind, id, file } = req.params;
      const size = sizes[file.replace(/\.png$/, '')];
      if (!['avatar', 'profile', 'group'].includes(kind) || !size || !file.endsWith('.png'))
        return reply.code(404).send({ error: { message: 'Not found', status_code: 404 } });
      return reply
        .type('image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(solidPng(`${kind}:${id}:${file}`, size[0], size[1]));
    },
  );
}
