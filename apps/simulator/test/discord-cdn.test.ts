import { inflateSync } from 'node:zlib';
import { CDN } from 'discord.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { DEFAULT_AVATAR_COLOURS, registerDiscordCdn } from '../src/discord/cdn.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { DiscordState } from '../src/discord/state.js';
import { seedColour } from '../src/png.js';
import { call } from './discord-helpers.js';

/** Width, height and the first pixel's colour of an 8-bit RGB PNG. */
function readPng(buf: Buffer): { width: number; height: number; rgb: number[] } {
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < buf.length) {
    const len = buf.readUInt32BE(offset);
    const type = buf.toString('ascii', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 2]);
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  return { width, height, rgb: [...raw.subarray(1, 4)] };
}

async function get(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

let sim: RunningSimulator;
/** discord.js's CDN helper on the simulator, as the product configures it (`rest.cdn` = `${sim}/cdn`). */
let cdn: CDN;
/** What the product's mappers pass to discord.js (apps/server/src/platforms/discord/mappers.ts). */
const image = { extension: 'png', size: 256 } as const;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  cdn = new CDN(`${sim.url}/cdn`);
});
afterAll(() => sim?.close());

/** The seeded user's current avatar hash, as the REST API reports it. */
async function avatarOf(userId: string): Promise<string | null> {
  const res = await call(sim.url, 'GET', `/api/v10/users/${userId}`);
  expect(res.status).toBe(200);
  return (res.body as { avatar: string | null }).avatar;
}

describe('Discord CDN: user avatars', () => {
  it("serves the avatar at discord.js's URL, sized by ?size=, coloured from the hash", async () => {
    const userId = seedUserIds.humans[1];
    const hash = (await avatarOf(userId))!;
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    const url = cdn.avatar(userId, hash, image);
    expect(url).toBe(`${sim.url}/cdn/avatars/${userId}/${hash}.png?size=256`);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/png');
    expect(readPng(res.body)).toEqual({ width: 256, height: 256, rgb: seedColour(hash) });
  });

  it("serves the login avatar URL the product's OAuth helper builds (no size: 128 px)", async () => {
    const userId = seedUserIds.admin;
    const hash = (await avatarOf(userId))!;
    // apps/server/src/platforms/discord/oauth.ts: `${cdnUrl}/avatars/${userId}/${avatar}.png`
    const res = await get(`${sim.url}/cdn/avatars/${userId}/${hash}.png`);
    expect(res.status).toBe(200);
    expect(readPng(res.body)).toMatchObject({ width: 128, height: 128 });
  });

  it('answers every extension Discord accepts, and every allowed size', async () => {
    const userId = seedUserIds.humans[1];
    const hash = (await avatarOf(userId))!;
    for (const ext of ['webp', 'jpg', 'jpeg', 'gif'] as const) {
      const res = await get(cdn.avatar(userId, hash, { extension: ext }));
      expect(res.status, ext).toBe(200);
      expect(res.type).toBe('image/png');
    }
    for (const size of [16, 64, 1024] as const) {
      const res = await get(cdn.avatar(userId, hash, { extension: 'png', size }));
      expect(readPng(res.body)).toMatchObject({ width: size, height: size });
    }
  });

  it('404s for an unknown user, a stale or wrong hash, and a user without an avatar', async () => {
    const userId = seedUserIds.humans[1];
    const hash = (await avatarOf(userId))!;
    const other = (await avatarOf(seedUserIds.humans[4]))!;
    expect(other).not.toBe(hash);
    const noAvatar = seedUserIds.humans[2];
    expect(await avatarOf(noAvatar)).toBeNull();
    for (const path of [
      `/cdn/avatars/1299999999999999999/${hash}.png`,
      `/cdn/avatars/${userId}/${other}.png`,
      `/cdn/avatars/${userId}/${hash.slice(1)}.png`,
      `/cdn/avatars/${noAvatar}/${hash}.png`,
      `/cdn/avatars/${userId}/${hash}.bmp`,
      `/cdn/avatars/${userId}/${hash}`,
      `/cdn/splashes/${userId}/${hash}.png`,
    ]) {
      const res = await get(sim.url + path);
      expect(res.status, path).toBe(404);
      expect(res.type).not.toMatch(/^image\//);
    }
  });

  it('400s for a size that is not a power of two from 16 to 4096', async () => {
    const userId = seedUserIds.humans[1];
    const hash = (await avatarOf(userId))!;
    for (const size of ['100', '8', '8192', 'big', '']) {
      const res = await get(`${sim.url}/cdn/avatars/${userId}/${hash}.png?size=${size}`);
      expect(res.status, size).toBe(400);
    }
  });
});

describe('Discord CDN: default avatars', () => {
  it("serves /embed/avatars/0-5.png in Discord's default colours", async () => {
    for (let n = 0; n < 6; n++) {
      const url = cdn.defaultAvatar(n);
      expect(url).toBe(`${sim.url}/cdn/embed/avatars/${n}.png`);
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(readPng(res.body)).toEqual({ width: 128, height: 128, rgb: [...DEFAULT_AVATAR_COLOURS[n]] });
    }
    expect(readPng((await get(`${sim.url}/cdn/embed/avatars/0.png?size=64`)).body).width).toBe(64);
    expect((await get(`${sim.url}/cdn/embed/avatars/6.png`)).status).toBe(404);
    expect((await get(`${sim.url}/cdn/embed/avatars/0.webp`)).status).toBe(404);
  });
});

describe('Discord CDN: guild icons', () => {
  let app: FastifyInstance;
  const state = new DiscordState();
  const guildId = seedGuildIds.hangout.id;
  const icon = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

  beforeAll(async () => {
    state.guilds.get(guildId)!.icon = icon;
    app = Fastify();
    await app.register(async (instance) => registerDiscordCdn(instance, state), { prefix: '/cdn' });
    await app.ready();
  });
  afterAll(() => app?.close());

  it("serves a guild's current icon at discord.js's URL", async () => {
    const url = new URL(new CDN('http://cdn.test/cdn').icon(guildId, icon, image));
    expect(url.pathname).toBe(`/cdn/icons/${guildId}/${icon}.png`);
    const res = await app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(readPng(res.rawPayload)).toEqual({ width: 256, height: 256, rgb: seedColour(icon) });
  });

  it('404s for a wrong hash, an unknown guild, or a guild without an icon', async () => {
    for (const url of [
      `/cdn/icons/${guildId}/${'0'.repeat(32)}.png`,
      `/cdn/icons/1399999999999999999/${icon}.png`,
      `/cdn/icons/${seedGuildIds.danceClub.id}/${icon}.png`,
    ])
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });

  it('the seeded guilds have no icon, so the simulator 404s their icon URLs', async () => {
    expect((await get(`${sim.url}/cdn/icons/${guildId}/${icon}.png`)).status).toBe(404);
  });
});

describe('Discord CDN: outside the REST API', () => {
  it('is not listed among the /api routes the contract test checks', async () => {
    const routes = (await call(sim.url, 'GET', '/control/discord/routes', { auth: null })).body as {
      url: string;
    }[];
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.some((r) => r.url.includes('cdn') || r.url.includes('avatars/:'))).toBe(false);
  });
});
