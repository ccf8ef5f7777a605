import type { FastifyInstance, FastifyReply } from 'fastify';
import { colourPng, seedColour } from '../png.js';
import type { DiscordState } from './state.js';

/**
 * Discord's CDN (cdn.discordapp.com), mounted at /cdn: the product's `DISCORD_CDN_URL` points here in
 * demo mode, and discord.js builds its avatar and icon URLs on it (`/avatars/{userId}/{hash}.png?size=256`,
 * `/icons/{guildId}/{hash}.png`, `/embed/avatars/{n}.png`). Like Discord, an image is only answered for a
 * user or guild that exists and whose current hash is the requested one; anything else is 404. The picture
 * is a solid-colour PNG derived from the hash (default avatars use Discord's six default colours), square,
 * `?size=` pixels wide (a power of two from 16 to 4096, else 400; 128 without it). Every extension Discord
 * accepts (png, webp, jpg, jpeg, gif) is answered with PNG bytes and `Content-Type: image/png`.
 */

export const CDN_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;
const DEFAULT_SIZE = 128;
const FILE = /^([A-Za-z0-9_]+)\.(png|webp|jpg|jpeg|gif)$/;

/** Discord's default avatars (`/embed/avatars/0.png` … `5.png`): blurple, grey, green, yellow, red, pink. */
export const DEFAULT_AVATAR_COLOURS: readonly (readonly [number, number, number])[] = [
  [0x58, 0x65, 0xf2],
  [0x75, 0x7e, 0x8a],
  [0x3b, 0xa5, 0x5c],
  [0xfa, 0xa6, 0x1a],
  [0xed, 0x42, 0x45],
  [0xeb, 0x45, 0x9f],
];

/** Paths relative to the simulator's base URL (what `${cdnUrl}` + discord.js's CDN routes produce). */
export const cdnPaths = {
  avatar: (userId: string, hash: string, ext = 'png') => `/cdn/avatars/${userId}/${hash}.${ext}`,
  icon: (guildId: string, hash: string, ext = 'png') => `/cdn/icons/${guildId}/${hash}.${ext}`,
  defaultAvatar: (index: number) => `/cdn/embed/avatars/${index}.png`,
};

/** Generated pictures by colour and size; large sizes take a moment to deflate, so keep recent ones. */
const cache = new Map<string, Buffer>();
const CACHE_LIMIT = 256;

function picture(rgb: readonly [number, number, number], size: number): Buffer {
  const key = `${rgb.join(',')}:${size}`;
  let png = cache.get(key);
  if (!png) {
    png = colourPng(rgb, size, size);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, png);
  }
  return png;
}

const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain').send('404: Not Found');

function sendImage(
  reply: FastifyReply,
  query: { size?: string },
  rgb: readonly [number, number, number],
): FastifyReply {
  let size = DEFAULT_SIZE;
  if (query.size !== undefined) {
    size = Number(query.size);
    if (!(CDN_SIZES as readonly number[]).includes(size))
      return reply.code(400).type('text/plain').send('400: Bad Request (invalid size)');
  }
  return reply
    .type('image/png')
    .header('cache-control', 'public, max-age=86400')
    .header('access-control-allow-origin', '*')
    .send(picture(rgb, size));
}

type CdnRequest = { Params: { id: string; file: string }; Querystring: { size?: string } };

/** Registers the CDN routes; mount under the `/cdn` prefix. */
export function registerDiscordCdn(cdn: FastifyInstance, state: DiscordState): void {
  cdn.setNotFoundHandler((_req, reply) => notFound(reply));

  cdn.get<CdnRequest>('/avatars/:id/:file', async (req, reply) => {
    const hash = FILE.exec(req.params.file)?.[1];
    const user = state.users.get(req.params.id);
    if (!hash || !user?.avatar || user.avatar !== hash) return notFound(reply);
    return sendImage(reply, req.query, seedColour(hash));
  });

  cdn.get<CdnRequest>('/icons/:id/:file', async (req, reply) => {
    const hash = FILE.exec(req.params.file)?.[1];
    const guild = state.guilds.get(req.params.id);
    if (!hash || !guild?.icon || guild.icon !== hash) return notFound(reply);
    return sendImage(reply, req.query, seedColour(hash));
  });

  cdn.get<{ Params: { file: string }; Querystring: { size?: string } }>(
    '/embed/avatars/:file',
    async (req, reply) => {
      const m = /^([0-5])\.png$/.exec(req.params.file);
      if (!m) return notFound(reply);
      return sendImage(reply, req.query, DEFAULT_AVATAR_COLOURS[Number(m[1])]);
    },
  );
}
