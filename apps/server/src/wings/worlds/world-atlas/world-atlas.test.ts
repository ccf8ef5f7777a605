import { createHash } from 'node:crypto';
import { seedGuildIds } from '@vrclink/simulator';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  newWorld,
  rows,
  signInMember,
  updateWorld,
} from '../../../../test/factories.js';
import { imageBlobs, worldAtlasState, worldImageSlots, worldImages } from '../../../db/schema/index.js';
import { worldsAtlasHandler } from '../../../jobs/handlers/worlds-atlas.js';
import { noJobQueue } from '../../../jobs/queue.js';
import { startJobWorker } from '../../../jobs/worker.js';
import { ATLAS_STALE_MS } from '../../../kernel/job-catalog.js';
import { multipartFile, solidImage } from '../world-images/testing.js';
import { decodeWorldBody } from '../worlds/codec/lzw.js';
import { ATLAS_REFRESH_QUIET_MS, regenerateOutOfDateAtlases } from './atlas-refresh.js';
import { runGeneration } from './generate-atlas.js';
import { ATLAS_IN_PROGRESS, ATLAS_NOT_QUEUED, ATLAS_RUN_STOPPED } from './world-atlas.service.js';

const { hangout } = seedGuildIds;
type Rgb = { r: number; g: number; b: number };

describe('world atlases (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let viewer: { id: string; session: string };
  let nobody: { id: string; session: string };

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing, jobs: true }));
    viewer = await signInMember(t, hangout.id);
    nobody = await signInMember(t, hangout.id);
    const granted = await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${viewer.id}`,
      session: owner.session,
      payload: { permissions: ['ViewImages'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
  });
  afterAll(() => t?.close());

  const createWorld = async (payload: object = {}) => {
    const id = await newWorld(t, hangout.id, owner);
    await updateWorld(t, { guildId: hangout.id, id }, owner, { name: 'Poster world', ...payload });
    return id;
  };

  /** A slot with a solid-colour image of a size (straight into the tables the images API writes). */
  const addSlot = async (
    worldId: string,
    slotId: number,
    image: { width: number; height: number; color: Rgb; maxDimension?: number } | null,
  ) => {
    let imageId: string | null = null;
    if (image) {
      const bytes = await sharp({
        create: {
          width: image.width,
          height: image.height,
          channels: 4,
          background: { ...image.color, alpha: 1 },
        },
      })
        .png()
        .toBuffer();
      const hash = createHash('sha256').update(bytes).digest('hex');
      await t.ctx.db
        .insert(imageBlobs)
        .values({ hash, contentType: 'image/png', width: image.width, height: image.height, bytes })
        .onConflictDoNothing();
      const [row] = await t.ctx.db
        .insert(worldImages)
        .values({
          guildId: hangout.id,
          name: `Poster ${slotId}`,
          imageHash: hash,
          width: image.width,
          height: image.height,
          createdBy: owner.id,
        })
        .returning();
      imageId = row.id;
    }
    await t.ctx.db
      .insert(worldImageSlots)
      .values({ worldId, slotId, imageId, maxDimension: image?.maxDimension ?? 512, order: slotId })
      .onConflictDoUpdate({
        target: [worldImageSlots.worldId, worldImageSlots.slotId],
        set: { imageId, maxDimension: image?.maxDimension ?? 512 },
      });
  };

  const generate = (worldId: string, session = owner.session, guildId = hangout.id) =>
    t.inject({ method: 'POST', url: `/api/world_images/atlas/${guildId}/${worldId}/generate`, session });
  const metadata = (worldId: string, session = owner.session) =>
    t.inject({ method: 'GET', url: `/api/world_images/atlas/${worldId}/metadata`, session });
  /** What a world loads: no cookies, no headers. */
  const publicAtlas = (path: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/data/atlas/${path}`, headers });
  /** The queued job, run as the worker would (its payload through the job's schema). */
  const runQueuedJob = async (worldId: string) => {
    await worldsAtlasHandler.run(t.ctx, worldsAtlasHandler.payload.parse({ worldId }));
  };
  const generateNow = async (worldId: string) => {
    const res = await generate(worldId);
    expect(res.statusCode, res.body).toBe(200);
    await runQueuedJob(worldId);
    const meta = (await metadata(worldId)).json();
    expect(meta.status, meta.error).toBe('idle');
    return meta;
  };
  /** The world's document as the VRChat client reads GET /data/v2/{worldId}. */
  const downloadDocument = async (worldId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/data/v2/${worldId}` });
    expect(res.statusCode, res.body).toBe(200);
    // Not '{': compressed; each character's low byte is one byte of LZW (14-bit codes) over UTF-8 JSON.
    const text = res.body.startsWith('{') ? res.body : decodeWorldBody(res.body);
    return JSON.parse(text);
  };
  const pixel = async (png: Buffer, x: number, y: number) => {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (y * info.width + x) * info.channels;
    return { r: data[at], g: data[at + 1], b: data[at + 2], alpha: data[at + 3] };
  };

  it('answers an empty state before the first generation, and the world data has no AtlasDetail', async () => {
    const worldId = await createWorld();
    const res = await metadata(worldId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      metadata: [],
      variation: null,
      status: 'idle',
      progress: 0,
      error: null,
      lastGeneration: null,
      outOfDate: false,
    });
    expect(await downloadDocument(worldId)).not.toHaveProperty('AtlasDetail');
  });

  it('marks atlases out of date when a slot changes, and the schedule regenerates them once the slots are quiet', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 100, height: 50, color: { r: 255, g: 0, b: 0 } });
    const first = await generateNow(worldId);
    expect(first.outOfDate).toBe(false);
    expect((await regenerateOutOfDateAtlases(t.ctx)).queued).toBe(0);

    // Another image in the slot (another size): the AtlasDetail still has the old rectangle.
    await addSlot(worldId, 1, { width: 40, height: 120, color: { r: 0, g: 255, b: 0 } });
    await t.ctx.db
      .update(worldImageSlots)
      .set({ updatedAt: new Date() })
      .where(eq(worldImageSlots.worldId, worldId));
    expect((await metadata(worldId)).json().outOfDate).toBe(true);
    expect((await downloadDocument(worldId)).AtlasDetail.MetaData[0]).toMatchObject({
      Width: 100,
      Height: 50,
    });

    // Changed just now: the run waits (debounce) and queues nothing for this world.
    const early = await regenerateOutOfDateAtlases(t.ctx);
    expect(early.waiting).toBeGreaterThanOrEqual(1);
    expect((await metadata(worldId)).json().status).toBe('idle');
    // Quiet long enough: queued as the job, audit-logged with the reason, and the new rectangle served.
    const later = await regenerateOutOfDateAtlases(t.ctx, Date.now() + ATLAS_REFRESH_QUIET_MS + 1000);
    expect(later.queued).toBeGreaterThanOrEqual(1);
    expect((await metadata(worldId)).json().status).toBe('queued');
    await runQueuedJob(worldId);
    const after = (await metadata(worldId)).json();
    expect(after).toMatchObject({ status: 'idle', outOfDate: false, variation: 1 - first.variation });
    expect((await downloadDocument(worldId)).AtlasDetail.MetaData[0]).toMatchObject({
      Width: 40,
      Height: 120,
    });
    expect(
      await rows(t, 'audit_log', "action = 'world.atlas.requested' and target_id = $1 and actor_id = $2", [
        worldId,
        'job:worlds.atlasRefresh',
      ]),
    ).toHaveLength(1);
    // Current again: the next run leaves it alone.
    await regenerateOutOfDateAtlases(t.ctx, Date.now() + ATLAS_REFRESH_QUIET_MS + 1000);
    expect((await metadata(worldId)).json().status).toBe('idle');
  });

  it('queues one generation at a time: a second click while it is queued or running answers 409', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 100, height: 50, color: { r: 255, g: 0, b: 0 } });
    const first = await generate(worldId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'queued', progress: 0, variation: null, metadata: [] });
    const second = await generate(worldId);
    expect({ status: second.statusCode, body: second.json() }).toEqual({
      status: 409,
      body: { message: ATLAS_IN_PROGRESS },
    });
    // A job took it: still one at a time.
    const [taken] = await t.ctx.db
      .update(worldAtlasState)
      .set({ status: 'running' })
      .where(eq(worldAtlasState.worldId, worldId))
      .returning();
    expect((await generate(worldId)).statusCode).toBe(409);
    // Another job of the world finds nothing queued and leaves the run alone.
    await runQueuedJob(worldId);
    expect((await metadata(worldId)).json()).toMatchObject({ status: 'running', variation: null });

    // The run finishes: the next click is a new generation.
    await runGeneration(t.ctx, worldId, taken.requestedAt as Date);
    expect((await metadata(worldId)).json()).toMatchObject({ status: 'idle', progress: 100, variation: 0 });
    expect((await generate(worldId)).statusCode).toBe(200);
  });

  it('runs on the real job queue: two worlds generating at once both finish', async () => {
    const worlds = [await createWorld(), await createWorld()];
    for (const worldId of worlds) {
      await addSlot(worldId, 1, { width: 50, height: 50, color: { r: 7, g: 7, b: 7 } });
      expect((await generate(worldId)).statusCode).toBe(200);
    }
    const stop = await startJobWorker(t.ctx, [worldsAtlasHandler]);
    try {
      for (const worldId of worlds) {
        await expect
          .poll(async () => (await metadata(worldId)).json().status, { timeout: 20_000, interval: 250 })
          .toBe('idle');
      }
    } finally {
      await stop();
    }
  });

  it('answers 503 when the job cannot be queued, and the dialog shows why', async () => {
    const worldId = await createWorld();
    const queue = t.ctx.jobs;
    t.ctx.jobs = noJobQueue;
    try {
      const res = await generate(worldId);
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 503,
        body: { message: ATLAS_NOT_QUEUED },
      });
    } finally {
      t.ctx.jobs = queue;
    }
    expect((await metadata(worldId)).json()).toMatchObject({ status: 'failed', error: ATLAS_NOT_QUEUED });
    expect((await generate(worldId)).statusCode).toBe(200);
  });

  it('lets a run that stopped (process died) be replaced after it went stale, and says it stopped', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 64, height: 64, color: { r: 0, g: 0, b: 255 } });
    expect((await generate(worldId)).statusCode).toBe(200);
    const longAgo = new Date(Date.now() - ATLAS_STALE_MS - 60_000);
    await t.ctx.db
      .update(worldAtlasState)
      .set({ status: 'running', progress: 40, requestedAt: longAgo })
      .where(eq(worldAtlasState.worldId, worldId));
    expect((await metadata(worldId)).json()).toMatchObject({ status: 'failed', error: ATLAS_RUN_STOPPED });

    expect((await generate(worldId)).statusCode).toBe(200);
    // The dead run, if it ever wakes up, is no longer the world's run and changes nothing.
    await runGeneration(t.ctx, worldId, longAgo);
    expect((await metadata(worldId)).json()).toMatchObject({ status: 'queued', variation: null });
    await runQueuedJob(worldId);
    expect((await metadata(worldId)).json()).toMatchObject({ status: 'idle', variation: 0 });
  });

  it('packs each slot scaled to its Max Dimension, skips empty slots, and the world data points at it', async () => {
    const worldId = await createWorld();
    const red = { r: 255, g: 0, b: 0 };
    const green = { r: 0, g: 255, b: 0 };
    await addSlot(worldId, 1, { width: 1000, height: 500, color: red, maxDimension: 256 });
    await addSlot(worldId, 2, { width: 300, height: 600, color: green, maxDimension: 1024 });
    await addSlot(worldId, 3, null);
    const meta = await generateNow(worldId);
    expect(meta).toMatchObject({ variation: 0, status: 'idle', progress: 100, error: null });
    expect(meta.metadata).toEqual([
      expect.objectContaining({ atlasIndex: 0, url: `/api/world_images/atlas/${worldId}/0/0` }),
    ]);
    expect(typeof meta.lastGeneration).toBe('string');

    const detail = (await downloadDocument(worldId)).AtlasDetail;
    expect(detail.Variation).toBe(0);
    expect(detail.LastGeneration).toBe(meta.lastGeneration);
    // 1000×500 at most 256 → 256×128; 300×600 under 1024 → kept; slot 3 has no image.
    const bySlot = Object.fromEntries(detail.MetaData.map((r: { SlotId: number }) => [r.SlotId, r]));
    expect(Object.keys(bySlot)).toEqual(['1', '2']);
    expect([bySlot[1].Width, bySlot[1].Height]).toEqual([256, 128]);
    expect([bySlot[2].Width, bySlot[2].Height]).toEqual([300, 600]);
    // Each slot's image is where its rectangle says.
    const png = (await publicAtlas(`${worldId}/0/0`)).rawPayload;
    const centre = (r: { X: number; Y: number; Width: number; Height: number }) =>
      [r.X + Math.floor(r.Width / 2), r.Y + Math.floor(r.Height / 2)] as const;
    expect(await pixel(png, ...centre(bySlot[1]))).toEqual({ ...red, alpha: 255 });
    expect(await pixel(png, ...centre(bySlot[2]))).toEqual({ ...green, alpha: 255 });
  });

  it('generates empty MetaData (and no atlas) when no slot has an image', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, null);
    const meta = await generateNow(worldId);
    expect(meta).toMatchObject({ metadata: [], variation: 0, status: 'idle' });
    const detail = (await downloadDocument(worldId)).AtlasDetail;
    expect(detail).toEqual({ MetaData: [], LastGeneration: meta.lastGeneration, Variation: 0 });
    expect((await publicAtlas(`${worldId}/0/0`)).statusCode).toBe(404);
  });

  it('flips the variation 0 → 1 → 0, the previous variation still served until the next generation', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 40, height: 40, color: { r: 255, g: 0, b: 0 } });
    expect((await generateNow(worldId)).variation).toBe(0);
    const first = (await publicAtlas(`${worldId}/0/0`)).rawPayload;

    await addSlot(worldId, 1, { width: 40, height: 40, color: { r: 0, g: 255, b: 0 } });
    expect((await generateNow(worldId)).variation).toBe(1);
    expect((await downloadDocument(worldId)).AtlasDetail.Variation).toBe(1);
    // The previous atlas is still there for worlds holding the previous data.
    const previous = await publicAtlas(`${worldId}/0/0`);
    expect(previous.statusCode).toBe(200);
    expect(previous.rawPayload.equals(first)).toBe(true);
    expect(await pixel((await publicAtlas(`${worldId}/1/0`)).rawPayload, 20, 20)).toEqual({
      r: 0,
      g: 255,
      b: 0,
      alpha: 255,
    });

    await addSlot(worldId, 1, { width: 40, height: 40, color: { r: 0, g: 0, b: 255 } });
    expect((await generateNow(worldId)).variation).toBe(0);
    expect(await pixel((await publicAtlas(`${worldId}/0/0`)).rawPayload, 20, 20)).toEqual({
      r: 0,
      g: 0,
      b: 255,
      alpha: 255,
    });
    expect(await pixel((await publicAtlas(`${worldId}/1/0`)).rawPayload, 20, 20)).toMatchObject({ g: 255 });
  });

  it('serves atlases publicly as PNG with ETag, 304, a one-minute cache and the security headers', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 30, height: 20, color: { r: 9, g: 9, b: 9 } });
    await generateNow(worldId);
    const res = await publicAtlas(`${worldId}/0/0`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeTruthy();
    const etag = String(res.headers.etag);
    expect(etag).toBe(`"${createHash('sha256').update(res.rawPayload).digest('hex')}"`);
    const again = await publicAtlas(`${worldId}/0/0`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await publicAtlas(`${worldId}/0/0`, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(
      304,
    );
    expect((await publicAtlas(`${worldId}/0/0`, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it.each([
    ['an unknown world', '3f2b6c1e-0000-4000-8000-000000000000/0/0'],
    ['a world id that is no id', 'not-a-world/0/0'],
    ['a variation other than 0 and 1', '{world}/2/0'],
    ['an atlas index past the last', '{world}/0/1'],
    ['an atlas index that is no number', '{world}/0/x'],
  ])('answers a short text 404 for %s', async (_, path) => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 10, height: 10, color: { r: 1, g: 2, b: 3 } });
    await generateNow(worldId);
    const res = await publicAtlas(path.replace('{world}', worldId));
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('Atlas not found.');
  });

  it('serves the dashboard its PNG with ETag and 304, to ViewImages only', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 30, height: 20, color: { r: 9, g: 9, b: 9 } });
    const { metadata: atlases } = await generateNow(worldId);
    const url = atlases[0].url as string;
    const res = await t.inject({ method: 'GET', url, session: viewer.session });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect((await sharp(res.rawPayload).metadata()).width).toBe(atlases[0].width);
    const cached = await t.inject({
      method: 'GET',
      url,
      session: viewer.session,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(cached.statusCode).toBe(304);

    const refused = await t.inject({ method: 'GET', url, session: nobody.session });
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({
      status: 403,
      body: { message: 'You need the ViewImages permission in this server.' },
    });
    const missing = await t.inject({
      method: 'GET',
      url: url.replace(/\/0$/, '/5'),
      session: viewer.session,
    });
    expect({ status: missing.statusCode, body: missing.json() }).toEqual({
      status: 404,
      body: { message: 'Atlas not found.' },
    });
  });

  it('needs ViewImages to read and ManageImages to generate; unknown worlds are 404', async () => {
    const worldId = await createWorld();
    expect((await metadata(worldId, viewer.session)).statusCode).toBe(200);
    expect((await metadata(worldId, nobody.session)).json()).toEqual({
      message: 'You need the ViewImages permission in this server.',
    });
    const byViewer = await generate(worldId, viewer.session);
    expect({ status: byViewer.statusCode, body: byViewer.json() }).toEqual({
      status: 403,
      body: { message: 'You need the ManageImages permission in this server.' },
    });
    const unknown = '3f2b6c1e-0000-4000-8000-000000000000';
    expect((await metadata(unknown)).json()).toEqual({ message: 'World not found.' });
    expect((await generate(unknown)).statusCode).toBe(404);
    // The Dance Club's admin runs another server: the Hangout's world is not found under it.
    const outsider = await signInMember(t, seedGuildIds.danceClub.id, {
      roles: [seedGuildIds.danceClub.roles.Staff],
    });
    const elsewhere = await generate(worldId, outsider.session, seedGuildIds.danceClub.id);
    expect({ status: elsewhere.statusCode, body: elsewhere.json() }).toEqual({
      status: 404,
      body: { message: 'World not found.' },
    });
    const anonymous = await t.inject({ method: 'GET', url: `/api/world_images/atlas/${worldId}/metadata` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('reports a slot image it cannot read as a sentence, and a new Generate may follow', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 7, { width: 20, height: 20, color: { r: 5, g: 5, b: 5 } });
    const [slot] = await t.ctx.db
      .select({ imageId: worldImageSlots.imageId })
      .from(worldImageSlots)
      .where(and(eq(worldImageSlots.worldId, worldId), eq(worldImageSlots.slotId, 7)));
    // Bytes that are no image under the slot's image (a damaged blob).
    const junk = Buffer.from('not an image at all');
    const hash = createHash('sha256').update(junk).digest('hex');
    await t.ctx.db
      .insert(imageBlobs)
      .values({ hash, contentType: 'image/png', width: 20, height: 20, bytes: junk });
    await t.ctx.db
      .update(worldImages)
      .set({ imageHash: hash })
      .where(eq(worldImages.id, slot.imageId as string));

    expect((await generate(worldId)).statusCode).toBe(200);
    await runQueuedJob(worldId);
    expect((await metadata(worldId)).json()).toMatchObject({
      status: 'failed',
      error: 'The image of slot 7 could not be read. Choose another image for it.',
      variation: null,
    });
    const failed = await rows(t, 'audit_log', "action = 'world.atlas.failed' AND target_id = $1", [worldId]);
    expect(failed).toEqual([expect.objectContaining({ actor_id: 'job:worlds.atlas', guild_id: hangout.id })]);
    expect((await generate(worldId)).statusCode).toBe(200);
  });

  it('audit-logs the request (the user) and the outcome (the job)', async () => {
    const worldId = await createWorld();
    await addSlot(worldId, 1, { width: 10, height: 10, color: { r: 1, g: 1, b: 1 } });
    await generateNow(worldId);
    const requested = await rows(t, 'audit_log', "action = 'world.atlas.requested' AND target_id = $1", [
      worldId,
    ]);
    expect(requested).toEqual([expect.objectContaining({ actor_id: owner.id, guild_id: hangout.id })]);
    const generated = await rows(t, 'audit_log', "action = 'world.atlas.generated' AND target_id = $1", [
      worldId,
    ]);
    expect(generated).toEqual([
      expect.objectContaining({
        actor_id: 'job:worlds.atlas',
        details: { variation: 0, atlases: 1, slots: 1 },
      }),
    ]);
  });

  it('uses the images and slots as the World Images API writes them (slot cards and atlas agree)', async () => {
    const worldId = await createWorld();
    const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.inject({ method, url: `/api/${url}`, session: owner.session, payload });
    expect(
      (await as('POST', `guilds/${hangout.id}/contact`, { email: 'admin@example.com' })).statusCode,
    ).toBe(200);
    const upload = async (width: number, height: number, color: Rgb) => {
      const file = multipartFile(
        'poster.png',
        await solidImage(width, height, 'png', { ...color, alpha: 1 }),
      );
      const res = await t.inject({
        method: 'POST',
        url: `/api/world_images/${hangout.id}/upload`,
        session: owner.session,
        ...file,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const wide = await upload(800, 200, { r: 250, g: 10, b: 10 });
    const tall = await upload(90, 300, { r: 10, g: 10, b: 250 });
    // Turned a quarter: 800×200 becomes 200×800 (a new blob).
    const turned = await as('POST', `world_images/${hangout.id}/image/${wide}`, { rotation: 'Clockwise' });
    expect(turned.statusCode, turned.body).toBe(200);
    // Two new slots (Slot IDs from the API), then their images and Max Dimensions.
    await t.inject({
      method: 'PUT',
      url: `/api/world_images/${hangout.id}/${worldId}/slots`,
      session: owner.session,
    });
    const created = await t.inject({
      method: 'PUT',
      url: `/api/world_images/${hangout.id}/${worldId}/slots`,
      session: owner.session,
    });
    const [first, second] = created.json().imageSlots.map((slot: { slotId: number }) => slot.slotId);
    for (const [slotId, imageId, maxDimension] of [
      [first, wide, 256],
      [second, tall, 2048],
    ] as const) {
      const res = await as('POST', `world_images/${hangout.id}/${worldId}/${slotId}/slots`, {
        slotId,
        imageId,
        maxDimension,
        name: `Slot ${slotId}`,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const cards = (await as('GET', `world_images/${hangout.id}/${worldId}/slots`)).json().imageSlots as {
      slotId: number;
      width: number;
      height: number;
    }[];
    expect(cards.map((c) => [c.slotId, c.width, c.height])).toEqual([
      [first, 64, 256],
      [second, 90, 300],
    ]);

    await generateNow(worldId);
    const { MetaData } = (await downloadDocument(worldId)).AtlasDetail;
    for (const card of cards) {
      const rect = MetaData.find((r: { SlotId: number }) => r.SlotId === card.slotId);
      expect([rect.Width, rect.Height]).toEqual([card.width, card.height]);
    }
    const png = (await publicAtlas(`${worldId}/0/0`)).rawPayload;
    const at = (slotId: number) => MetaData.find((r: { SlotId: number }) => r.SlotId === slotId);
    expect(await pixel(png, at(first).X + 32, at(first).Y + 128)).toEqual({
      r: 250,
      g: 10,
      b: 10,
      alpha: 255,
    });
    expect(await pixel(png, at(second).X + 45, at(second).Y + 150)).toEqual({
      r: 10,
      g: 10,
      b: 250,
      alpha: 255,
    });
  });

  it('the downloaded world data (compressed, decoded as VRChat does) points only inside the served PNGs', async () => {
    const worldId = await createWorld({ compression: true });
    // 20 posters of mixed sizes and Max Dimensions: more than one 2048² atlas.
    for (let i = 0; i < 20; i++) {
      const size = [
        [1200, 900, 1024],
        [512, 512, 512],
        [2000, 300, 768],
        [333, 777, 384],
      ][i % 4];
      await addSlot(worldId, i + 1, {
        width: size[0],
        height: size[1],
        maxDimension: size[2],
        color: { r: i * 10, g: 100, b: 200 },
      });
    }
    await generateNow(worldId);

    const res = await t.app.inject({ method: 'GET', url: `/data/v2/${worldId}` });
    expect(res.body[0]).not.toBe('{');
    const doc = await downloadDocument(worldId);
    const detail = doc.AtlasDetail;
    expect(typeof detail.LastGeneration).toBe('string');
    expect([0, 1]).toContain(detail.Variation);
    expect(detail.MetaData).toHaveLength(20);
    expect(new Set(detail.MetaData.map((r: { AtlasIndex: number }) => r.AtlasIndex)).size).toBeGreaterThan(1);
    const sizes = new Map<number, { width: number; height: number }>();
    for (const rect of detail.MetaData) {
      for (const key of ['SlotId', 'AtlasIndex', 'X', 'Y', 'Width', 'Height']) {
        expect(Number.isInteger(rect[key]), key).toBe(true);
        expect(rect[key]).toBeGreaterThanOrEqual(0);
      }
      if (!sizes.has(rect.AtlasIndex)) {
        const png = await publicAtlas(`${worldId}/${detail.Variation}/${rect.AtlasIndex}`);
        expect(png.statusCode).toBe(200);
        const { width = 0, height = 0, format } = await sharp(png.rawPayload).metadata();
        expect(format).toBe('png');
        expect(Math.max(width, height)).toBeLessThanOrEqual(2048);
        sizes.set(rect.AtlasIndex, { width, height });
      }
      const atlas = sizes.get(rect.AtlasIndex)!;
      expect(rect.Width).toBeGreaterThan(0);
      expect(rect.X + rect.Width).toBeLessThanOrEqual(atlas.width);
      expect(rect.Y + rect.Height).toBeLessThanOrEqual(atlas.height);
    }
  });
});
