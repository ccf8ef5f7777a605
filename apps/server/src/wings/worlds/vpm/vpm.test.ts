import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { crc32 } from 'node:zlib';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app.js';
import { packageDir } from '../../../../test/unity/mono.js';
import { vpmListingSchema } from '../../../../test/vpm-listing-schema.js';

/** The entries of a stored (uncompressed) ZIP, read from its central directory; CRCs are checked. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(method).toBe(0);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + size);
    expect(crc32(data)).toBe(crc);
    entries.set(name, data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function packageFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? packageFiles(path) : [relative(packageDir, path)];
  });
}

describe('VPM listing', () => {
  let t: TestApp;
  let listing: Record<string, unknown> & {
    url: string;
    packages: Record<string, { versions: Record<string, Record<string, unknown>> }>;
  };
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://vrclink.example' } });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/vpm/index.json',
      headers: { host: 'evil.example' },
    });
    expect(res.statusCode).toBe(200);
    listing = res.json();
  });
  afterAll(() => t.close());

  function onlyPackage() {
    const [id, pkg] = Object.entries(listing.packages)[0];
    const [version, manifest] = Object.entries(pkg.versions)[0];
    return { id, version, manifest: manifest as Record<string, string> & Record<string, unknown> };
  }

  it('validates against the VPM repository listing schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(vpmListingSchema);
    expect(validate(listing), ajv.errorsText(validate.errors)).toBe(true);
    expect(listing).toMatchObject({
      name: 'VRCLink',
      url: 'https://vrclink.example/api/vpm/index.json',
      author: 'VRCLink',
    });
    const { id, version, manifest } = onlyPackage();
    expect(manifest.name).toBe(id);
    expect(manifest.version).toBe(version);
    expect(manifest.url).toMatch(/^https:\/\/vrclink\.example\/api\/vpm\/packages\/.+\.zip$/);
  });

  it('the schema rejects a listing missing a manifest field or with a bad hash (the check can fail)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(vpmListingSchema);
    const { id, version, manifest } = onlyPackage();
    const { zipSHA256: _, ...noHash } = manifest;
    for (const broken of [noHash, { ...manifest, zipSHA256: 'XYZ' }, { ...manifest, unity: '2022' }]) {
      expect(validate({ ...listing, packages: { [id]: { versions: { [version]: broken } } } })).toBe(false);
    }
  });

  it('declares Unity 2022.3, a VRChat version and the VRChat Worlds SDK (which bundles UdonSharp) as dependency', () => {
    const { manifest } = onlyPackage();
    expect(manifest.unity).toBe('2022.3');
    expect(manifest.vrchatVersion).toMatch(/^\d{4}\.\d+\.\d+$/);
    const deps = manifest.vpmDependencies as unknown as Record<string, string>;
    expect(deps['com.vrchat.worlds']).toMatch(/^>=3\.[5-9]\.\d+$/);
    // UdonSharp ships inside com.vrchat.worlds since SDK 3.4.0; the old standalone package would conflict.
    expect(deps).not.toHaveProperty('com.vrchat.udonsharp');
  });

  it('the vcc:// link carries the listing address, which serves this listing', async () => {
    const link = `vcc://vpm/addRepo?url=${encodeURIComponent(listing.url)}`;
    const parsed = new URL(link);
    expect(parsed.protocol).toBe('vcc:');
    expect(parsed.host + parsed.pathname).toBe('vpm/addRepo');
    const address = new URL(parsed.searchParams.get('url') ?? '');
    const again = await t.app.inject({
      method: 'GET',
      url: address.pathname,
      headers: { host: address.host },
    });
    expect(again.json()).toEqual(listing);
  });

  it('serves the zip of the package folder, hashed as served: scripts, prefabs, package.json and README', async () => {
    const { manifest } = onlyPackage();
    const zip = await t.app.inject({ method: 'GET', url: new URL(manifest.url).pathname });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(createHash('sha256').update(zip.rawPayload).digest('hex')).toBe(manifest.zipSHA256);

    const entries = readZip(zip.rawPayload);
    // Every file of the folder (with its .meta), at the zip's root as the Creator Companion expects.
    expect([...entries.keys()].sort()).toEqual(packageFiles(packageDir).sort());
    for (const name of [
      'package.json',
      'README.md',
      'Runtime/VRCLinkWorldData.cs',
      'Runtime/Core/VRCLinkLzw.cs',
      'Runtime/Core/VRCLinkWorldDocument.cs',
      'Runtime/VRCLink.Runtime.asmdef',
      'Editor/VRCLinkLoginWindow.cs',
      'Editor/VRCLinkWorldSetup.cs',
      'Editor/VRCLink.Editor.asmdef',
      'Prefabs/VRCLink World Data.prefab',
      'Prefabs/VRCLink Supporter Board.prefab',
      'Prefabs/VRCLink Role Door.prefab',
      'Prefabs/VRCLink Poster.prefab',
    ]) {
      expect(entries.has(name), name).toBe(true);
      expect(entries.get(name)?.equals(readFileSync(join(packageDir, name)))).toBe(true);
    }
    // The listing's manifest is the zipped package.json plus url and hash.
    const { url: _u, zipSHA256: _h, ...fromListing } = manifest;
    expect(JSON.parse(entries.get('package.json')?.toString('utf8') ?? '')).toEqual(fromListing);
    // The README walks a world creator through setup in five steps.
    const readme = entries.get('README.md')?.toString('utf8') ?? '';
    expect(readme.match(/^[1-5]\. /gm)).toHaveLength(5);
  });

  it('answers 404 for an unknown package file', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/vpm/packages/nope.zip' });
    expect(res.statusCode).toBe(404);
  });
});
