import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { signInHangoutOwner } from '../../../../test/factories.js';
import { sessionXsrfToken } from '../../../http/auth.js';
import { DISK_FULL, diskWrites } from '../../../kernel/disk.js';
import { IMAGE_WORK_SLOTS, withImageSlot } from './image-work.js';
import { multipartFile, solidImage } from './testing.js';
import { uploadTempDir } from './upload-file.js';

const { hangout } = seedGuildIds;
const url = `/api/world_images/${hangout.id}/upload`;
const MB = 1024 * 1024;

/**
 * Uploads stream: the body goes to a temporary file under DATA_DIR/tmp/uploads (never whole into memory), an
 * upload past the limit is answered 413 while the client is still sending, and no temporary file outlives
 * its request (success, refusal, client gone).
 */
describe('world images: uploads stream to a temporary file', () => {
  let t: TestApp;
  let dataDir: string;
  let tempDir: string;
  let origin: string;
  let session: string;
  /** The browser's XSRF token of a session (bound to it). */
  const xsrfOf = (token: string) => sessionXsrfToken(t.ctx.config.secretKey, token);
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vrclink-uploads-'));
    tempDir = uploadTempDir(dataDir);
    t = await createTestApp({ ...laxSimulator.forManyDiscordCalls, env: { DATA_DIR: dataDir } });
    session = (await signInHangoutOwner(t)).session;
    const contact = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}/contact`,
      session,
      payload: { email: 'images@example.com' },
    });
    expect(contact.statusCode).toBe(200);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const tempFiles = async () => readdir(tempDir).catch(() => [] as string[]);

  /** A real upload over a socket, written as the caller says (chunked, no length): the request and its answer. */
  function openUpload() {
    const { headers } = multipartFile('x.png', Buffer.alloc(0));
    const req = request(`${origin}${url}`, {
      method: 'POST',
      headers: {
        ...headers,
        cookie: `vrclink_session=${session}; XSRF-TOKEN=${xsrfOf(session)}`,
        'x-xsrf-token': xsrfOf(session),
      },
    });
    const answer = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
        );
      });
      req.on('error', reject);
    });
    const boundary = headers['content-type'].split('boundary=')[1];
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    return { req, answer, head };
  }
  const write = (req: ReturnType<typeof request>, bytes: Buffer) =>
    new Promise<void>((resolve, reject) => req.write(bytes, (err) => (err ? reject(err) : resolve())));

  it('answers 413 past the limit while the client is still sending, and keeps no file', async () => {
    const { req, answer, head } = openUpload();
    let answered = false;
    void answer.then(
      () => {
        answered = true;
      },
      () => {},
    );
    req.on('error', () => {}); // the server may close the connection once it answered
    await write(req, Buffer.concat([head, await solidImage(4, 4)]));
    // Up to 100 MB, never ending the body: the answer must come while bytes are still on their way.
    let sent = 0;
    const chunk = Buffer.alloc(256 * 1024);
    while (!answered && sent < 100 * MB) {
      // A write waits while the server reads no more; the answer ends that wait.
      await Promise.race([write(req, chunk).catch(() => {}), answer.catch(() => {})]);
      sent += chunk.length;
    }
    const res = await answer;
    req.destroy();
    expect({ status: res.status, message: JSON.parse(res.body).message }).toEqual({
      status: 413,
      message: 'The file is larger than 10 MB.',
    });
    expect(sent).toBeLessThan(100 * MB);
    // The rest of the body is never read, so the server closes the connection rather than wait on it.
    expect(res.connection).toBe('close');
    expect(await tempFiles()).toEqual([]);
  }, 60_000);

  it('waits for an image work slot with the bytes in a file, then stores them and removes it', async () => {
    const png = await solidImage(300, 200);
    const refusal = (await import('node:crypto')).randomBytes(2 * MB);
    // Both image work slots busy: the uploads can only be received, not worked on.
    let release = () => {};
    const busy = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: IMAGE_WORK_SLOTS }, () => withImageSlot(() => busy));
    const stored = t.inject({ method: 'POST', url, session, ...multipartFile('poster.png', png) });
    const refused = t.inject({ method: 'POST', url, session, ...multipartFile('noise.png', refusal) });
    try {
      // Both bodies wait on disk, whole, under DATA_DIR/tmp/uploads.
      await vi.waitFor(
        async () => {
          const sizes = await Promise.all(
            (await tempFiles()).map(async (f) => (await stat(join(tempDir, f))).size),
          );
          expect(sizes.sort((a, b) => a - b)).toEqual([png.length, refusal.length].sort((a, b) => a - b));
        },
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      release();
      await Promise.all(holders);
    }
    const [ok, notImage] = await Promise.all([stored, refused]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ name: 'poster.png', width: 300, height: 200 });
    expect(notImage.statusCode).toBe(415);
    expect(await tempFiles()).toEqual([]);
  });

  it('removes the partial file when the client goes away mid-upload', async () => {
    const { req, answer, head } = openUpload();
    answer.catch(() => {});
    req.on('error', () => {});
    await write(req, Buffer.concat([head, await solidImage(4, 4), Buffer.alloc(MB)]));
    await vi.waitFor(async () => expect(await tempFiles()).toHaveLength(1), {
      timeout: 10_000,
      interval: 20,
    });
    req.destroy();
    await vi.waitFor(async () => expect(await tempFiles()).toEqual([]), { timeout: 10_000, interval: 20 });
  });

  it('answers 507 when the disk is full, reads the whole upload, and the connection answers the next request', async () => {
    // One keep-alive connection for every request: the next one must be answered on the same socket.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<Socket>();
    const send = (
      method: string,
      path: string,
      body?: { headers: Record<string, string>; payload: Buffer },
    ) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${origin}${path}`, {
          method,
          agent,
          headers: {
            ...body?.headers,
            cookie: `vrclink_session=${session}; XSRF-TOKEN=${xsrfOf(session)}`,
            'x-xsrf-token': xsrfOf(session),
          },
        });
        req.on('socket', (socket) => sockets.add(socket));
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body?.payload);
      });
    const upload = (name: string, bytes: Buffer) => send('POST', url, multipartFile(name, bytes));
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const writes = vi.spyOn(diskWrites, 'write').mockRejectedValue(full);
    try {
      // 2 MB: many chunks after the first refused write, all read before the answer.
      const refused = await upload('full.png', (await import('node:crypto')).randomBytes(2 * MB));
      expect({ status: refused.status, message: JSON.parse(refused.body).message }).toEqual({
        status: 507,
        message: DISK_FULL,
      });
      expect(writes).toHaveBeenCalled();
    } finally {
      writes.mockRestore();
    }
    expect((await send('GET', '/api/user')).status).toBe(200);
    const stored = await upload('room.png', await solidImage(64, 48));
    expect(stored.status, stored.body).toBe(201);
    expect(sockets.size).toBe(1);
    expect(await tempFiles()).toEqual([]);
    agent.destroy();
  });

  it('answers a database write that finds the disk full (53100) 507 with the same sentence', async () => {
    const sql = (text: string) => t.ctx.database.executeSql(text);
    await sql(`create function disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/1/2": No space left on device' using errcode = '53100'; end $$`);
    await sql(
      'create trigger disk_full before update on guild_settings for each row execute function disk_full()',
    );
    try {
      const res = await t.inject({
        method: 'POST',
        url: `/api/guilds/${hangout.id}/contact`,
        session,
        payload: { email: 'full@example.com' },
      });
      expect({ status: res.statusCode, message: res.json().message }).toEqual({
        status: 507,
        message: DISK_FULL,
      });
    } finally {
      await sql('drop trigger disk_full on guild_settings');
      await sql('drop function disk_full()');
    }
  });
});
