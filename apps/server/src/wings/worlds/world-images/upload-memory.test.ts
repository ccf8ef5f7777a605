import { randomBytes } from 'node:crypto';
import { seedGuildIds } from '@vrclink/simulator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner } from '../../../../test/factories.js';
import { multipartFile } from './testing.js';

const { hangout } = seedGuildIds;
const MB = 1024 * 1024;

/** A PNG of noise just under 10 MB (noise does not compress): the heaviest upload the default limit lets in. */
async function noisePng(): Promise<Buffer> {
  const side = 1800;
  const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  expect(png.length).toBeGreaterThan(9 * MB);
  expect(png.length).toBeLessThanOrEqual(10 * MB);
  return png;
}

/**
 * Memory of uploads on the embedded database (PGlite keeps its heap in this process, and the heap never
 * shrinks): six 10 MB uploads at once stay under 300 MB above idle, and /api/health keeps answering.
 */
describe('world images: memory of uploads on PGlite', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    const contact = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/contact`,
      session: owner.session,
      payload: { email: 'images@example.com' },
    });
    expect(contact.statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it('six concurrent 10 MB uploads stay under 300 MB above idle, and health answers meanwhile', async () => {
    const files = await Promise.all(Array.from({ length: 6 }, noisePng));
    const bodies = files.map((bytes, i) => multipartFile(`noise-${i}.png`, bytes));
    // Idle: the app warmed up by one small upload, the request bodies already in memory.
    const small = multipartFile(
      'small.png',
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `/api/world_images/${hangout.id}/upload`,
          session: owner.session,
          ...small,
        })
      ).statusCode,
    ).toBe(201);
    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    let slowestHealth = 0;
    let uploading = true;
    const health = (async () => {
      while (uploading) {
        const started = Date.now();
        await t.inject({ method: 'GET', url: '/api/health' });
        slowestHealth = Math.max(slowestHealth, Date.now() - started);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const uploadStarted = Date.now();
    let uploadMs = 0;
    try {
      const answers = await Promise.all(
        bodies.map((body) =>
          t.inject({
            method: 'POST',
            url: `/api/world_images/${hangout.id}/upload`,
            session: owner.session,
            ...body,
          }),
        ),
      );
      uploadMs = Date.now() - uploadStarted;
      for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    } finally {
      uploading = false;
      await health;
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect((peak - idle) / MB).toBeLessThan(300);
    // Never held for most of the uploads' time (2 s on a quiet machine; a loaded one makes both slower).
    expect(slowestHealth).toBeLessThan(Math.max(2000, uploadMs / 2));
    // On PGlite the bytes are files beside the embedded database, not rows in its heap (PostgreSQL: rows).
    if (t.ctx.database.kind !== 'pglite') return;
    const inRows = await t.ctx.database.executeSql(
      'select count(*)::int as n from image_blobs where bytes is not null',
    );
    expect(inRows.rows[0].n).toBe(0);
  }, 120_000);
});
