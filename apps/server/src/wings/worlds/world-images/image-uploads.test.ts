import { crc32, deflateSync } from 'node:zlib';
import { seedGuildIds } from '@vrclink/simulator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, signInMember } from '../../../../test/factories.js';
import { multipartFile, solidImage } from './testing.js';

const { hangout, danceClub } = seedGuildIds;
const base = `/api/world_images/${hangout.id}`;
const MB = 1024 * 1024;

/** A PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG header declaring width × height RGBA with a token of pixel data: a decompression bomb's shape. */
function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('world images: uploads that cannot hurt the server', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forManyDiscordCalls,
      env: { WORLD_IMAGE_MAX_PER_GUILD: '2' },
    }));
    await setContact(hangout.id, owner.session);
  });
  afterAll(() => t?.close());

  async function setContact(guildId: string, session: string) {
    const res = await t.inject({
      method: 'POST',
      url: `/api/guilds/${guildId}/contact`,
      session,
      payload: { email: 'images@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const upload = (fileName: string, bytes: Buffer, opts: { field?: string; contentType?: string } = {}) =>
    t.inject({
      method: 'POST',
      url: `${base}/upload`,
      session: owner.session,
      ...multipartFile(fileName, bytes, opts),
    });
  /** Uploads `bytes`, expects 201 at `size`, and answers the stored image as served. */
  const uploadAndRead = async (fileName: string, bytes: Buffer, size: { width: number; height: number }) => {
    const res = await upload(fileName, bytes);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject(size);
    return t.inject({ method: 'GET', url: `${base}/image/${res.json().id}`, session: owner.session });
  };
  const refusal = (res: { statusCode: number; json: () => { message: string } }) => ({
    status: res.statusCode,
    message: res.json().message,
  });
  const deleteAll = async () => {
    for (const image of (
      await t.inject({ method: 'GET', url: `${base}/images`, session: owner.session })
    ).json().images)
      await t.inject({ method: 'DELETE', url: `${base}/image/${image.id}`, session: owner.session });
  };

  it('refuses a file over 10 MB with 413 and a sentence; exactly 10 MB is read', async () => {
    const header = await solidImage(4, 4);
    const over = Buffer.concat([header, Buffer.alloc(10 * MB + 1 - header.length)]);
    expect(refusal(await upload('huge.png', over))).toEqual({
      status: 413,
      message: 'The file is larger than 10 MB.',
    });
    // At the limit the file is read (and refused for what it is, not its size).
    const atLimit = Buffer.concat([Buffer.from('not an image'), Buffer.alloc(10 * MB - 12)]);
    expect(refusal(await upload('big.png', atLimit)).status).toBe(415);
  });

  it('refuses a PNG whose header claims 20000 × 20000 at once, without decoding it', async () => {
    const bomb = pngDeclaring(20000, 20000);
    expect(bomb.length).toBeLessThan(1024);
    // CPU time of the whole process (sharp decodes on libuv's threads), not wall time: a loaded machine stretches
    // the latter, not the former.
    const before = process.cpuUsage();
    const res = await upload('bomb.png', bomb);
    const used = process.cpuUsage(before);
    expect(refusal(res)).toEqual({ status: 413, message: 'The image is larger than 40 megapixels.' });
    // Decoding 400 million pixels would take seconds of CPU and 1.6 GB; reading the header takes milliseconds.
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });

  it('recognises images by content: a text file named .png, with an image type, is refused', async () => {
    const text = Buffer.from('Hello, this is a text file pretending to be a picture.\n');
    const res = await upload('notes.png', text, { contentType: 'image/png' });
    expect(refusal(res)).toEqual({ status: 415, message: 'The file is not a PNG, JPEG, WebP or GIF image.' });
    // Magic bytes alone are not enough either: sharp must read the header.
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), text]);
    expect(refusal(await upload('fake.png', fake)).status).toBe(415);
    // An SVG (which could carry script) is not one of the four formats.
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    expect(refusal(await upload('logo.png', svg, { contentType: 'image/png' })).status).toBe(415);
  });

  it('refuses a damaged image (valid header, cut-off pixels) with 422, storing nothing', async () => {
    const full = await sharp({
      create: {
        width: 200,
        height: 200,
        channels: 3,
        background: 'black',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .png()
      .toBuffer();
    const res = await upload('cut.png', full.subarray(0, full.length / 2));
    expect(refusal(res)).toEqual({ status: 422, message: 'The image is damaged and cannot be read.' });
    const images = await t.ctx.database.executeSql('select id from world_images where guild_id = $1', [
      hangout.id,
    ]);
    expect(images.rows).toHaveLength(0);
  });

  it('accepts JPEG and WebP, named by the file whatever its extension, encoded again in their own format', async () => {
    const jpeg = await solidImage(50, 40, 'jpeg');
    const res = await upload('photo.gif', jpeg);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'photo.gif', width: 50, height: 40 });
    const bytes = await t.inject({
      method: 'GET',
      url: `${base}/image/${res.json().id}`,
      session: owner.session,
    });
    expect(bytes.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(bytes.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 50, 40]);
    const webp = await upload('poster.webp', await solidImage(30, 60, 'webp'));
    expect(webp.statusCode, webp.body).toBe(201);
    const webpBytes = await t.inject({
      method: 'GET',
      url: `${base}/image/${webp.json().id}`,
      session: owner.session,
    });
    expect(webpBytes.headers['content-type']).toBe('image/webp');
    await deleteAll();
  });

  it.each(['gif', 'webp'] as const)('stores an animated %s as a PNG of its first frame', async (format) => {
    const red = await solidImage(30, 20, 'png', { r: 255, g: 0, b: 0, alpha: 1 });
    const blue = await solidImage(30, 20, 'png', { r: 0, g: 0, b: 255, alpha: 1 });
    const animation = await sharp([red, blue], { join: { animated: true } })
      .toFormat(format, format === 'webp' ? { lossless: true } : {})
      .toBuffer();
    expect((await sharp(animation).metadata()).pages).toBe(2);
    const stored = await uploadAndRead(`dance.${format}`, animation, { width: 30, height: 20 });
    expect(stored.headers['content-type']).toBe('image/png');
    const meta = await sharp(stored.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.pages ?? 1]).toEqual(['png', 30, 20, 1]);
    const { channels } = await sharp(stored.rawPayload).stats();
    expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([255, 0, 0]);
    await deleteAll();
  });

  it('stores an animated PNG (APNG) as a still PNG, without its animation chunks', async () => {
    const still = await solidImage(30, 20, 'png', { r: 0, g: 255, b: 0, alpha: 1 });
    // acTL (1 frame, looping) and the first frame's fcTL go after IHDR, before the image data.
    const ihdrEnd = 8 + 12 + still.readUInt32BE(8);
    const actl = Buffer.alloc(8);
    actl.writeUInt32BE(1, 0);
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(0, 0);
    fctl.writeUInt32BE(30, 4);
    fctl.writeUInt32BE(20, 8);
    fctl.writeUInt16BE(1, 20);
    fctl.writeUInt16BE(10, 22);
    const apng = Buffer.concat([
      still.subarray(0, ihdrEnd),
      chunk('acTL', actl),
      chunk('fcTL', fctl),
      still.subarray(ihdrEnd),
    ]);
    const stored = await uploadAndRead('spinner.png', apng, { width: 30, height: 20 });
    expect(stored.headers['content-type']).toBe('image/png');
    expect(stored.rawPayload.includes(Buffer.from('acTL'))).toBe(false);
    expect(stored.rawPayload.includes(Buffer.from('fcTL'))).toBe(false);
    const { channels } = await sharp(stored.rawPayload).stats();
    expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([0, 255, 0]);
    await deleteAll();
  });

  it('serves only pixels of a PNG: no text chunks (Author, Comment) and nothing after the image end', async () => {
    const plain = await solidImage(30, 20, 'png', { r: 10, g: 200, b: 30, alpha: 1 });
    const ihdrEnd = 8 + 12 + plain.readUInt32BE(8);
    const crafted = Buffer.concat([
      plain.subarray(0, ihdrEnd),
      chunk('tEXt', Buffer.from('Author\0Jane Doe, 12 Example Street', 'latin1')),
      chunk('tEXt', Buffer.from('Comment\0meet me at 5', 'latin1')),
      plain.subarray(ihdrEnd),
      Buffer.from('PK\x03\x04 a zip appended after IEND', 'latin1'),
    ]);
    const stored = await uploadAndRead('crafted.png', crafted, { width: 30, height: 20 });
    expect(stored.headers['content-type']).toBe('image/png');
    for (const text of ['Jane Doe', 'meet me', 'tEXt', 'a zip appended'])
      expect(stored.rawPayload.includes(Buffer.from(text, 'latin1')), text).toBe(false);
    // The file ends with the IEND chunk (its CRC is fixed: ae 42 60 82).
    expect(stored.rawPayload.subarray(-8).toString('hex')).toBe('49454e44ae426082');
    const { channels } = await sharp(stored.rawPayload).stats();
    expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([10, 200, 30]);
    await deleteAll();
  });

  it('turns a photo with an EXIF orientation upright, so its size is what people see', async () => {
    const sideways = await sharp(await solidImage(60, 20, 'jpeg'))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const res = await upload('phone.jpg', sideways);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ width: 20, height: 60 });
    await deleteAll();
  });

  it.each(['jpeg', 'png', 'webp'] as const)(
    'stores a %s without its EXIF and XMP (where and by whom a photo was taken)',
    async (format) => {
      const tagged = await sharp(await solidImage(40, 30, format))
        .withExif({
          IFD0: { Copyright: 'Someone', Artist: 'Someone' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
        })
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
        .toFormat(format)
        .toBuffer();
      const sent = await sharp(tagged).metadata();
      expect(Boolean(sent.exif && sent.xmp)).toBe(true);
      const stored = await uploadAndRead(`photo.${format}`, tagged, { width: 40, height: 30 });
      expect(stored.headers['content-type']).toBe(`image/${format}`);
      const meta = await sharp(stored.rawPayload).metadata();
      expect([meta.format, meta.exif, meta.xmp, meta.iptc]).toEqual([
        format,
        undefined,
        undefined,
        undefined,
      ]);
      await deleteAll();
    },
  );

  it('keeps at most WORLD_IMAGE_MAX_PER_GUILD images per server (409), and counts per server', async () => {
    await deleteAll();
    for (const shade of [10, 20]) {
      const ok = await upload(
        `${shade}.png`,
        await solidImage(8, 8, 'png', { r: shade, g: 0, b: 0, alpha: 1 }),
      );
      expect(ok.statusCode).toBe(201);
    }
    const third = await upload('30.png', await solidImage(8, 8, 'png', { r: 30, g: 0, b: 0, alpha: 1 }));
    expect(refusal(third)).toEqual({
      status: 409,
      message: 'This server already has 2 images. Delete some before uploading more.',
    });
    // Another server has its own allowance.
    const clubAdmin = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    await setContact(danceClub.id, clubAdmin.session);
    const theirs = await t.inject({
      method: 'POST',
      url: `/api/world_images/${danceClub.id}/upload`,
      session: clubAdmin.session,
      ...multipartFile('club.png', await solidImage(8, 8)),
    });
    expect(theirs.statusCode).toBe(201);
    await deleteAll();
  });

  it('needs a contact e-mail for the server before the first upload', async () => {
    const clubAdmin = await signInMember(t, danceClub.id, { roles: [danceClub.roles.Staff] });
    await t.ctx.database.executeSql('update guild_settings set contact_email = null where guild_id = $1', [
      danceClub.id,
    ]);
    const res = await t.inject({
      method: 'POST',
      url: `/api/world_images/${danceClub.id}/upload`,
      session: clubAdmin.session,
      ...multipartFile('club.png', await solidImage(9, 9)),
    });
    expect(refusal(res)).toEqual({
      status: 409,
      message: 'Add a contact e-mail for this server before uploading images.',
    });
  });

  it('answers 400 with a sentence for a request that is not one image in the field "file"', async () => {
    const json = await t.inject({
      method: 'POST',
      url: `${base}/upload`,
      session: owner.session,
      payload: {},
    });
    expect(refusal(json)).toEqual({
      status: 400,
      message: 'Send the image as multipart/form-data in the field "file".',
    });
    const wrongField = await upload('x.png', await solidImage(5, 5), { field: 'image' });
    expect(refusal(wrongField).status).toBe(400);
    const broken = await t.inject({
      method: 'POST',
      url: `${base}/upload`,
      session: owner.session,
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
    expect(broken.json().message).toMatch(/\.$/);
  });
});
