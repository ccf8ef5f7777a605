import { createHash } from 'node:crypto';
import { seedGuildIds } from '@vrclink/simulator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, rows, signInMember } from '../../../../test/factories.js';
import { multipartFile, solidImage } from './testing.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/world_images/${hangout.id}`;
const unknownId = '3f2b6c1e-0000-4000-8000-000000000000';
type User = { id: string; session: string };
type Image = { id: string; name: string; width: number; height: number; imageHash: string };

describe('world images: server images (against the simulators)', () => {
  let t: TestApp, owner: User;
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    await setContact(hangout.id, owner);
  });
  afterAll(() => t?.close());

  async function setContact(guildId: string, user: User) {
    const res = await t.inject({
      method: 'POST',
      url: `/api/guilds/${guildId}/contact`,
      session: user.session,
      payload: { email: 'images@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const upload = (fileName: string, bytes: Buffer, user = owner, guildId = hangout.id) =>
    t.inject({
      method: 'POST',
      url: `/api/world_images/${guildId}/upload`,
      session: user.session,
      ...multipartFile(fileName, bytes),
    });
  const uploaded = async (fileName: string, bytes: Buffer) => {
    const res = await upload(fileName, bytes);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Image;
  };
  const get = (url: string, user = owner, headers: Record<string, string> = {}) =>
    t.inject({ method: 'GET', url, session: user.session, headers });
  const rotate = (id: string, rotation: string, user = owner) =>
    t.inject({ method: 'POST', url: `${base}/image/${id}`, session: user.session, payload: { rotation } });
  const previewCount = async (hash: string) =>
    (await t.ctx.database.executeSql('select size from image_previews where hash = $1', [hash])).rows.length;

  it('uploads a PNG: 201 with its name (no folders), size and content hash, audit-logged', async () => {
    const bytes = await solidImage(300, 200);
    const image = await uploaded('C:\\Users\\me\\Pictures\\  club poster.png', bytes);
    expect(image).toMatchObject({ name: 'club poster.png', width: 300, height: 200 });
    expect(image.imageHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await rows(t, 'audit_log', "action = 'world_image.upload' and target_id = $1", [image.id]);
    expect(audit[0]).toMatchObject({ actor_id: owner.id, guild_id: hangout.id });
  });

  it('lists the server images newest first', async () => {
    const first = await uploaded(
      'first.png',
      await solidImage(10, 10, 'png', { r: 1, g: 2, b: 3, alpha: 1 }),
    );
    const second = await uploaded(
      'second.png',
      await solidImage(10, 10, 'png', { r: 4, g: 5, b: 6, alpha: 1 }),
    );
    const res = await get(`${base}/images`);
    expect(res.statusCode).toBe(200);
    const ids = res.json().images.map((i: Image) => i.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.json().images[0]).toEqual(second);
  });

  it('keeps the same bytes once: a second upload answers the image already there, another server shares the blob', async () => {
    const bytes = await solidImage(40, 30, 'png', { r: 9, g: 9, b: 99, alpha: 1 });
    const image = await uploaded('once.png', bytes);
    const again = await upload('renamed.png', bytes);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(image);
    // The Dance Club's admin uploads the same file: a row of their own over the same blob.
    const clubAdmin = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    await setContact(danceClub.id, clubAdmin);
    const theirs = await upload('theirs.png', bytes, clubAdmin, danceClub.id);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(image.id);
    expect(theirs.json().imageHash).toBe(image.imageHash);
    const blobs = await t.ctx.database.executeSql('select hash from image_blobs where hash = $1', [
      image.imageHash,
    ]);
    expect(blobs.rows).toHaveLength(1);
    // Each server sees only its own images.
    const clubList = (await get(`/api/world_images/${danceClub.id}/images`, clubAdmin)).json().images;
    expect(clubList.map((i: Image) => i.id)).toEqual([theirs.json().id]);
    const elsewhere = await get(`/api/world_images/${danceClub.id}/image/${image.id}`, clubAdmin);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe('Image not found.');
  });

  it('serves the stored bytes with their content type and an ETag; If-None-Match answers 304', async () => {
    const bytes = await solidImage(64, 48, 'jpeg');
    const image = await uploaded('photo.jpg', bytes);
    const res = await get(`${base}/image/${image.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.etag).toBe(`"${image.imageHash}"`);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    // Encoded again from its pixels (only pixels are kept); the hash names the bytes served.
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(image.imageHash);
    expect((await sharp(res.rawPayload).metadata()).format).toBe('jpeg');
    const cached = await get(`${base}/image/${image.id}`, owner, {
      'if-none-match': `W/"x", "${image.imageHash}"`,
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect(cached.headers.etag).toBe(`"${image.imageHash}"`);
    // An address naming the current bytes (?v=imageHash) may be kept for good; an old one is revalidated.
    const current = await get(`${base}/image/${image.id}?v=${image.imageHash}`);
    expect(current.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const preview = await get(`${base}/image/${image.id}/preview?v=${image.imageHash}`);
    expect(preview.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const old = await get(`${base}/image/${image.id}?v=0123abcd`);
    expect([old.statusCode, old.headers['cache-control']]).toEqual([200, 'private, no-cache']);
    const missing = await get(`${base}/image/${unknownId}`);
    expect({ status: missing.statusCode, message: missing.json().message }).toEqual({
      status: 404,
      message: 'Image not found.',
    });
  });

  it('makes the preview once (longest side 256, PNG) and keeps it; ETag answers 304', async () => {
    const image = await uploaded('wide.webp', await solidImage(1000, 500, 'webp'));
    const url = `${base}/image/${image.id}/preview`;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers.etag).toBe(`"${image.imageHash}-256"`);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 256, 128]);
    expect(await previewCount(image.imageHash)).toBe(1);
    const again = await get(url);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(await previewCount(image.imageHash)).toBe(1);
    expect((await get(url, owner, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
    // A small image is not enlarged.
    const small = await uploaded(
      'small.png',
      await solidImage(100, 40, 'png', { r: 0, g: 0, b: 0, alpha: 1 }),
    );
    const smallPreview = await get(`${base}/image/${small.id}/preview`);
    expect(smallPreview.headers.etag).toBe(`"${small.imageHash}-100"`);
    expect((await sharp(smallPreview.rawPayload).metadata()).width).toBe(100);
  });

  it('turns an image both ways: width and height swap, a new blob by hash, audit-logged', async () => {
    const image = await uploaded(
      'tall.png',
      await solidImage(120, 80, 'png', { r: 10, g: 200, b: 10, alpha: 1 }),
    );
    // The top-left pixel marks the orientation: after a clockwise turn it is top-right.
    const marked = await sharp(await solidImage(120, 80))
      .composite([
        { input: await solidImage(10, 10, 'png', { r: 0, g: 0, b: 255, alpha: 1 }), left: 0, top: 0 },
      ])
      .png()
      .toBuffer();
    const mark = await uploaded('marked.png', marked);
    const right = await rotate(mark.id, 'Clockwise');
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toMatchObject({ id: mark.id, width: 80, height: 120 });
    expect(right.json().imageHash).not.toBe(mark.imageHash);
    const turned = (await get(`${base}/image/${mark.id}`)).rawPayload;
    const { data, info } = await sharp(turned).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels).subarray(0, 3),
    ];
    expect(pixel(info.width - 1, 0)).toEqual([0, 0, 255]);
    expect(pixel(0, 0)).toEqual([200, 40, 40]);
    const left = await rotate(mark.id, 'CounterClockwise');
    expect(left.json()).toMatchObject({ width: 120, height: 80 });
    expect(left.json().imageHash).not.toBe(right.json().imageHash);
    // Blobs nobody uses any more are dropped; the current one stays.
    const blobs = await t.ctx.database.executeSql('select hash from image_blobs where hash = any($1)', [
      [mark.imageHash, right.json().imageHash, left.json().imageHash],
    ]);
    expect(blobs.rows.map((r) => r.hash)).toEqual([left.json().imageHash]);
    const audit = await rows(t, 'audit_log', "action = 'world_image.rotate' and target_id = $1", [mark.id]);
    expect(audit.map((a) => (a.details as { rotation: string }).rotation)).toEqual([
      'Clockwise',
      'CounterClockwise',
    ]);
    expect((await rotate(image.id, 'Sideways')).statusCode).toBe(400);
    expect((await rotate(unknownId, 'Clockwise')).statusCode).toBe(404);
  });

  it('deletes an image (204, then 404), audit-logged', async () => {
    const image = await uploaded(
      'gone.png',
      await solidImage(20, 20, 'png', { r: 77, g: 7, b: 7, alpha: 1 }),
    );
    const res = await t.inject({
      method: 'DELETE',
      url: `${base}/image/${image.id}`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(204);
    expect((await get(`${base}/image/${image.id}`)).statusCode).toBe(404);
    expect((await get(`${base}/images`)).json().images.map((i: Image) => i.id)).not.toContain(image.id);
    const again = await t.inject({
      method: 'DELETE',
      url: `${base}/image/${image.id}`,
      session: owner.session,
    });
    expect(again.statusCode).toBe(404);
    const audit = await rows(t, 'audit_log', "action = 'world_image.delete' and target_id = $1", [image.id]);
    expect(audit).toHaveLength(1);
  });

  describe('permissions', () => {
    let viewer: User;
    let manager: User;
    let image: Image;
    beforeAll(async () => {
      viewer = await signInMember(t, hangout.id);
      manager = await signInMember(t, hangout.id);
      for (const [user, permissions] of [
        [viewer, ['ViewImages']],
        [manager, ['ManageImages']],
      ] as const) {
        const res = await t.inject({
          method: 'POST',
          url: `/api/guilds/permissions/${hangout.id}/${user.id}`,
          session: owner.session,
          payload: { permissions },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      image = await uploaded('shared.png', await solidImage(30, 30, 'png', { r: 5, g: 50, b: 5, alpha: 1 }));
    });

    it('ViewImages reads; every write needs ManageImages', async () => {
      expect((await get(`${base}/images`, viewer)).statusCode).toBe(200);
      expect((await get(`${base}/image/${image.id}`, viewer)).statusCode).toBe(200);
      expect((await get(`${base}/image/${image.id}/preview`, viewer)).statusCode).toBe(200);
      const refused = { status: 403, message: 'You need the ManageImages permission in this server.' };
      const asViewer = [
        await upload('nope.png', await solidImage(5, 5), viewer),
        await rotate(image.id, 'Clockwise', viewer),
        await t.inject({ method: 'DELETE', url: `${base}/image/${image.id}`, session: viewer.session }),
      ];
      for (const res of asViewer)
        expect({ status: res.statusCode, message: res.json().message }).toEqual(refused);
    });

    it('ManageImages implies ViewImages and may write', async () => {
      expect((await get(`${base}/images`, manager)).statusCode).toBe(200);
      const res = await upload(
        'managed.png',
        await solidImage(6, 6, 'png', { r: 1, g: 1, b: 1, alpha: 1 }),
        manager,
      );
      expect(res.statusCode).toBe(201);
      expect((await rotate(res.json().id, 'Clockwise', manager)).statusCode).toBe(200);
    });

    it('API keys carry the same permissions, and only for their own server', async () => {
      const keyWith = async (guildId: string, user: User, permissions: string[]) => {
        const res = await t.inject({
          method: 'POST',
          url: `/api/guilds/${guildId}/api_keys/create`,
          session: user.session,
          payload: {
            name: 'Images',
            permissions,
            validUntil: new Date(Date.now() + 86_400_000).toISOString(),
          },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().token as string;
      };
      const asKey = (
        key: string,
        method: 'GET' | 'POST',
        url: string,
        file?: { payload: Buffer; headers: Record<string, string> },
      ) =>
        t.app.inject({
          method,
          url,
          payload: file?.payload,
          headers: { ...file?.headers, authorization: key },
        });
      const viewKey = await keyWith(hangout.id, owner, ['ViewImages']);
      const manageKey = await keyWith(hangout.id, owner, ['ManageImages']);
      expect((await asKey(viewKey, 'GET', `${base}/image/${image.id}`)).statusCode).toBe(200);
      const file = multipartFile('key.png', await solidImage(7, 7, 'png', { r: 2, g: 3, b: 4, alpha: 1 }));
      const refused = await asKey(viewKey, 'POST', `${base}/upload`, file);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('You need the ManageImages permission in this server.');
      const byKey = await asKey(manageKey, 'POST', `${base}/upload`, file);
      expect(byKey.statusCode, byKey.body).toBe(201);
      const audit = await rows(t, 'audit_log', "action = 'world_image.upload' and target_id = $1", [
        byKey.json().id,
      ]);
      expect(audit[0].actor_id).toMatch(/^apikey:/);
      // A key of the Hangout is nothing in the Dance Club.
      const foreign = await asKey(manageKey, 'GET', `/api/world_images/${danceClub.id}/images`);
      expect(foreign.json().message).toBe('This API key is not valid for this server.');
    });
  });
});
