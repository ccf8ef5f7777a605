import { seedGuildIds } from '@vrclink/simulator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, rows, signInMember } from '../../../../test/factories.js';
import { multipartFile, solidImage } from './testing.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/world_images/${hangout.id}`;
type User = { id: string; session: string };
type Slot = {
  id: string;
  slotId: number;
  worldId: string;
  name: string;
  imageId: string | null;
  imageName: string | null;
  imageHash: string | null;
  maxDimension: number;
  width: number | null;
  height: number | null;
  order: number;
};

describe('world images: image slots (against the simulators)', () => {
  let t: TestApp, owner: User;
  let clubAdmin: User;
  let poster: { id: string; imageHash: string };
  let clubImage: { id: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    clubAdmin = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    for (const [guildId, user] of [
      [hangout.id, owner],
      [danceClub.id, clubAdmin],
    ] as const) {
      await t.inject({
        method: 'POST',
        url: `/api/guilds/${guildId}/contact`,
        session: user.session,
        payload: { email: 'images@example.com' },
      });
    }
    poster = await upload(owner, hangout.id, 'poster.png', await solidImage(1000, 600));
    clubImage = await upload(clubAdmin, danceClub.id, 'club.png', await solidImage(50, 50));
  });
  afterAll(() => t?.close());

  async function upload(user: User, guildId: string, name: string, bytes: Buffer) {
    const res = await t.inject({
      method: 'POST',
      url: `/api/world_images/${guildId}/upload`,
      session: user.session,
      ...multipartFile(name, bytes),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function newWorld(guildId = hangout.id, user = owner): Promise<string> {
    const res = await t.inject({
      method: 'PUT',
      url: `/api/guilds/${guildId}/worlds`,
      session: user.session,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    return res.json().worlds.at(-1).id;
  }
  const list = (worldId: string, user = owner) =>
    t.inject({ method: 'GET', url: `${base}/${worldId}/slots`, session: user.session });
  const addSlot = async (worldId: string): Promise<Slot[]> => {
    const res = await t.inject({ method: 'PUT', url: `${base}/${worldId}/slots`, session: owner.session });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().imageSlots;
  };
  const update = (worldId: string, slotId: number, payload: object, user = owner) =>
    t.inject({ method: 'POST', url: `${base}/${worldId}/${slotId}/slots`, session: user.session, payload });
  const refusal = (res: { statusCode: number; json: () => { message: string } }) => ({
    status: res.statusCode,
    message: res.json().message,
  });

  it('creates slots with the next Slot ID (0 first), Max Dimension 512, no name, last in order', async () => {
    const world = await newWorld();
    expect((await list(world)).json()).toEqual({ imageSlots: [] });
    const [first] = await addSlot(world);
    expect(first).toEqual({
      id: expect.any(String),
      slotId: 0,
      worldId: world,
      name: '',
      imageId: null,
      imageName: null,
      imageHash: null,
      maxDimension: 512,
      width: null,
      height: null,
      order: 0,
    });
    const slots = await addSlot(world);
    expect(slots.map((s) => [s.slotId, s.order])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    const audit = await rows(t, 'audit_log', "action = 'world_image_slot.create' and target_id = $1", [
      world,
    ]);
    expect(audit.map((a) => (a.details as { slotId: number }).slotId)).toEqual([0, 1]);
  });

  it('sets a slot image, name and Max Dimension; width and height are the slot size (slotSize)', async () => {
    const world = await newWorld();
    await addSlot(world);
    const res = await update(world, 0, {
      slotId: 0,
      imageId: poster.id,
      name: '  Stage left ',
      maxDimension: 256,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      slotId: 0,
      name: 'Stage left',
      imageId: poster.id,
      imageName: 'poster.png',
      imageHash: poster.imageHash,
      maxDimension: 256,
      width: 256,
      height: 154,
    });
    // Never enlarged: 2048 keeps the image's own size.
    expect((await update(world, 0, { slotId: 0, maxDimension: 2048 })).json()).toMatchObject({
      width: 1000,
      height: 600,
      name: 'Stage left',
      imageId: poster.id,
    });
    expect((await list(world)).json().imageSlots[0]).toMatchObject({ maxDimension: 2048, width: 1000 });
    // Clear Image.
    const cleared = await update(world, 0, { slotId: 0, imageId: null });
    expect(cleared.json()).toMatchObject({ imageId: null, imageName: null, width: null, height: null });
    const audit = await rows(t, 'audit_log', "action = 'world_image_slot.update' and target_id = $1", [
      world,
    ]);
    expect(audit.at(-1)?.details).toEqual({ slotId: 0, imageId: null });
  });

  it('refuses a body Slot ID that differs from the address, a Max Dimension not offered, another server’s image', async () => {
    const world = await newWorld();
    await addSlot(world);
    expect(refusal(await update(world, 0, { slotId: 1, name: 'x' }))).toEqual({
      status: 400,
      message: 'The slot ID in the body must match the one in the address.',
    });
    expect((await update(world, 0, { slotId: 0, maxDimension: 500 })).statusCode).toBe(400);
    expect(refusal(await update(world, 0, { slotId: 0, imageId: clubImage.id }))).toEqual({
      status: 404,
      message: 'Image not found.',
    });
    expect(refusal(await update(world, 7, { slotId: 7, name: 'x' }))).toEqual({
      status: 404,
      message: 'Image slot not found.',
    });
    expect((await update(world, 0, { slotId: 0, name: 'x'.repeat(101) })).statusCode).toBe(400);
  });

  it('deletes a slot; its Slot ID is not given again while a higher one exists', async () => {
    const world = await newWorld();
    await addSlot(world);
    await addSlot(world);
    const del = await t.inject({ method: 'DELETE', url: `${base}/${world}/0/slots`, session: owner.session });
    expect(del.statusCode).toBe(204);
    expect((await list(world)).json().imageSlots.map((s: Slot) => s.slotId)).toEqual([1]);
    expect((await addSlot(world)).map((s) => s.slotId)).toEqual([1, 2]);
    const again = await t.inject({
      method: 'DELETE',
      url: `${base}/${world}/0/slots`,
      session: owner.session,
    });
    expect(refusal(again)).toEqual({ status: 404, message: 'Image slot not found.' });
    const audit = await rows(t, 'audit_log', "action = 'world_image_slot.delete' and target_id = $1", [
      world,
    ]);
    expect(audit).toHaveLength(1);
  });

  it('reorders in one batch; a slot of another world refuses the whole batch', async () => {
    const world = await newWorld();
    await addSlot(world);
    await addSlot(world);
    const slots = await addSlot(world);
    const batch = (payload: object) =>
      t.inject({ method: 'POST', url: `${base}/${world}/slots/batch`, session: owner.session, payload });
    const reversed = slots.map((s, i) => ({ id: s.id, order: slots.length - 1 - i }));
    const res = await batch({ imageSlots: reversed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imageSlots.map((s: Slot) => s.slotId)).toEqual([2, 1, 0]);
    // An empty batch changes nothing and logs nothing.
    expect((await batch({ imageSlots: [] })).json().imageSlots.map((s: Slot) => s.slotId)).toEqual([2, 1, 0]);
    const audit = await rows(t, 'audit_log', "action = 'world_image_slot.reorder' and target_id = $1", [
      world,
    ]);
    expect(audit).toHaveLength(1);

    const other = await newWorld();
    const [foreign] = await addSlot(other);
    const mixed = await batch({
      imageSlots: [
        { id: slots[0].id, order: 0 },
        { id: foreign.id, order: 1 },
      ],
    });
    expect(refusal(mixed)).toEqual({ status: 404, message: 'Image slot not found.' });
    expect((await list(world)).json().imageSlots.map((s: Slot) => s.slotId)).toEqual([2, 1, 0]);
    expect((await list(other)).json().imageSlots[0].order).toBe(0);
    const twice = await batch({
      imageSlots: [
        { id: slots[0].id, order: 0 },
        { id: slots[0].id, order: 1 },
      ],
    });
    expect(refusal(twice)).toEqual({ status: 400, message: 'Each slot may appear only once.' });
  });

  it('serves the slot image at its slot size and a preview, made once, with ETags', async () => {
    const world = await newWorld();
    await addSlot(world);
    await update(world, 0, { slotId: 0, imageId: poster.id, maxDimension: 384 });
    const url = `/api/world_images/slot_image/${hangout.id}/${world}/0`;
    const res = await t.inject({ method: 'GET', url, session: owner.session });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers.etag).toBe(`"${poster.imageHash}-384"`);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([384, 230]);
    const slot = (await list(world)).json().imageSlots[0];
    expect([slot.width, slot.height]).toEqual([384, 230]);
    const cached = await t.inject({
      method: 'GET',
      url,
      session: owner.session,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    // ?v=imageHash-maxDimension names this picture: kept for good; after a Max Dimension change it is stale.
    const versioned = (v: string) =>
      t.inject({ method: 'GET', url: `${url}?v=${v}`, session: owner.session });
    expect((await versioned(`${poster.imageHash}-384`)).headers['cache-control']).toBe(
      'private, max-age=31536000, immutable',
    );
    expect((await versioned(`${poster.imageHash}-512`)).headers['cache-control']).toBe('private, no-cache');
    const preview = await t.inject({ method: 'GET', url: `${url}/preview`, session: owner.session });
    expect(preview.statusCode).toBe(200);
    expect((await sharp(preview.rawPayload).metadata()).width).toBe(256);
    const previews = await t.ctx.database.executeSql(
      'select size from image_previews where hash = $1 order by size',
      [poster.imageHash],
    );
    expect(previews.rows.map((r) => r.size)).toEqual([256, 384]);
    // A slot with no image has nothing to show.
    await update(world, 0, { slotId: 0, imageId: null });
    const empty = await t.inject({ method: 'GET', url, session: owner.session });
    expect(refusal(empty)).toEqual({ status: 404, message: 'This slot has no image.' });
  });

  it('clears the slots showing an image when the image is deleted', async () => {
    const world = await newWorld();
    await addSlot(world);
    await addSlot(world);
    const doomed = await upload(
      owner,
      hangout.id,
      'doomed.png',
      await solidImage(64, 64, 'png', { r: 1, g: 99, b: 1, alpha: 1 }),
    );
    await update(world, 0, { slotId: 0, imageId: doomed.id, name: 'Keep my name' });
    await update(world, 1, { slotId: 1, imageId: poster.id });
    const del = await t.inject({
      method: 'DELETE',
      url: `${base}/image/${doomed.id}`,
      session: owner.session,
    });
    expect(del.statusCode).toBe(204);
    const [first, second] = (await list(world)).json().imageSlots as Slot[];
    expect(first).toMatchObject({ slotId: 0, name: 'Keep my name', imageId: null, width: null });
    expect(second).toMatchObject({ slotId: 1, imageId: poster.id });
  });

  it('answers 404 World not found for a world of another server, or none', async () => {
    const clubWorld = await newWorld(danceClub.id, clubAdmin);
    const unknown = '3f2b6c1e-0000-4000-8000-000000000000';
    for (const worldId of [clubWorld, unknown]) {
      const calls = [
        await list(worldId),
        await t.inject({ method: 'PUT', url: `${base}/${worldId}/slots`, session: owner.session }),
        await update(worldId, 0, { slotId: 0, name: 'x' }),
        await t.inject({ method: 'DELETE', url: `${base}/${worldId}/0/slots`, session: owner.session }),
        await t.inject({
          method: 'POST',
          url: `${base}/${worldId}/slots/batch`,
          session: owner.session,
          payload: { imageSlots: [] },
        }),
        await t.inject({
          method: 'GET',
          url: `/api/world_images/slot_image/${hangout.id}/${worldId}/0`,
          session: owner.session,
        }),
      ];
      for (const res of calls) expect(refusal(res)).toEqual({ status: 404, message: 'World not found.' });
    }
    // The Dance Club's own admin reaches it through their server.
    const theirs = await t.inject({
      method: 'GET',
      url: `/api/world_images/${danceClub.id}/${clubWorld}/slots`,
      session: clubAdmin.session,
    });
    expect(theirs.statusCode).toBe(200);
  });

  it('lets ViewImages read slots and their images, and refuses it every change', async () => {
    const world = await newWorld();
    await addSlot(world);
    await update(world, 0, { slotId: 0, imageId: poster.id });
    const viewer = await signInMember(t, hangout.id);
    const grant = await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${viewer.id}`,
      session: owner.session,
      payload: { permissions: ['ViewImages'] },
    });
    expect(grant.statusCode).toBe(200);
    expect((await list(world, viewer)).statusCode).toBe(200);
    const image = await t.inject({
      method: 'GET',
      url: `/api/world_images/slot_image/${hangout.id}/${world}/0`,
      session: viewer.session,
    });
    expect(image.statusCode).toBe(200);
    const refused = { status: 403, message: 'You need the ManageImages permission in this server.' };
    expect(
      refusal(await t.inject({ method: 'PUT', url: `${base}/${world}/slots`, session: viewer.session })),
    ).toEqual(refused);
    expect(refusal(await update(world, 0, { slotId: 0, name: 'x' }, viewer))).toEqual(refused);
  });
});
