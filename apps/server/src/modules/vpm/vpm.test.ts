import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';

describe('VPM listing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://vrclink.example' } });
  });
  afterAll(() => t.close());

  it('lists the world SDK package in the VCC repository format with a matching zip hash, at PUBLIC_URL whatever the Host header says', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/vpm/index.json',
      headers: { host: 'evil.example' },
    });
    expect(res.statusCode).toBe(200);
    const listing = res.json();
    expect(listing).toMatchObject({
      name: 'VRCLink',
      url: 'https://vrclink.example/api/vpm/index.json',
      author: 'VRCLink',
    });
    const [id, pkg] = Object.entries(listing.packages)[0] as [
      string,
      { versions: Record<string, Record<string, string>> },
    ];
    const [version, entry] = Object.entries(pkg.versions)[0];
    expect(entry.name).toBe(id);
    expect(entry.version).toBe(version);
    expect(entry.url).toMatch(/^https:\/\/vrclink\.example\/api\/vpm\/packages\/.+\.zip$/);

    const zip = await t.app.inject({ method: 'GET', url: new URL(entry.url).pathname });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(createHash('sha256').update(zip.rawPayload).digest('hex')).toBe(entry.zipSHA256);
    expect(zip.rawPayload.includes(Buffer.from('package.json'))).toBe(true);
  });

  it('answers 404 for an unknown package file', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/vpm/packages/nope.zip' });
    expect(res.statusCode).toBe(404);
  });
});
