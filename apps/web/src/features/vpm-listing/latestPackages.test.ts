import { describe, expect, it } from 'vitest';
import { addToVccUrl, compareVersions, latestPackages } from './latestPackages';

const listing = (versions: Record<string, Record<string, unknown>>) => ({
  name: 'VRCLink',
  id: 'app.vrclink.vpm',
  url: 'https://vrclink.example/api/vpm/index.json',
  author: 'VRCLink',
  packages: { 'com.vrclink.worlds-sdk': { versions } },
});

describe('compareVersions', () => {
  it('orders by number, not by text, and puts a release after its pre-releases', () => {
    const sorted = ['1.10.0', '1.2.0', '2.0.0-beta.2', '2.0.0', '2.0.0-beta.10', '1.2.0-rc.1'].sort(
      compareVersions,
    );
    expect(sorted).toEqual(['1.2.0-rc.1', '1.2.0', '1.10.0', '2.0.0-beta.2', '2.0.0-beta.10', '2.0.0']);
  });
});

describe('latestPackages', () => {
  it('summarises each package at its latest version', () => {
    const result = latestPackages(
      listing({
        '1.0.0': { name: 'com.vrclink.worlds-sdk', displayName: 'Old', version: '1.0.0', description: 'old' },
        '1.10.0': {
          name: 'com.vrclink.worlds-sdk',
          displayName: 'New',
          version: '1.10.0',
          description: 'new',
        },
      }),
    );
    expect(result).toEqual([
      { name: 'com.vrclink.worlds-sdk', displayName: 'New', version: '1.10.0', description: 'new' },
    ]);
  });

  it('falls back to the package id and version key when the manifest lacks them', () => {
    expect(latestPackages(listing({ '0.1.0': {} }))).toEqual([
      {
        name: 'com.vrclink.worlds-sdk',
        displayName: 'com.vrclink.worlds-sdk',
        version: '0.1.0',
        description: '',
      },
    ]);
  });

  it('skips a package without versions', () => {
    expect(latestPackages(listing({}))).toEqual([]);
  });
});

describe('addToVccUrl', () => {
  it('URL-encodes the listing address into the vcc:// link', () => {
    expect(addToVccUrl('https://vrclink.example/api/vpm/index.json')).toBe(
      'vcc://vpm/addRepo?url=https%3A%2F%2Fvrclink.example%2Fapi%2Fvpm%2Findex.json',
    );
  });
});
