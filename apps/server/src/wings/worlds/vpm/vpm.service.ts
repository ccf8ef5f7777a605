import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { serverDir } from '../../../server-dir.js';
import { buildZip } from './zip.js';

const packageDir = join(serverDir, 'assets/vpm/com.vrclink.worlds-sdk');

export interface VpmPackage {
  manifest: Record<string, unknown> & { name: string; version: string };
  zip: Buffer;
  sha256: string;
  fileName: string;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

let cached: VpmPackage | undefined;

/** The world SDK package, zipped once per process from the files shipped with the server. */
export function worldSdkPackage(): VpmPackage {
  if (cached) return cached;
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  // Built from the package folder at start (Runtime, Editor, Prefabs, package.json, README, every .meta);
  // ZIP names always use '/'.
  const zip = buildZip(
    listFiles(packageDir).map((p) => ({
      name: relative(packageDir, p).split(sep).join('/'),
      data: readFileSync(p),
    })),
  );
  cached = {
    manifest,
    zip,
    sha256: createHash('sha256').update(zip).digest('hex'),
    fileName: `${manifest.name}-${manifest.version}.zip`,
  };
  return cached;
}

/** The VPM repository listing (VRChat Creator Companion format) for this deployment's address. */
export function vpmListing(origin: string) {
  const pkg = worldSdkPackage();
  return {
    name: 'VRCLink',
    id: 'app.vrclink.vpm',
    url: `${origin}/api/vpm/index.json`,
    author: 'VRCLink',
    packages: {
      [pkg.manifest.name]: {
        versions: {
          [pkg.manifest.version]: {
            ...pkg.manifest,
            url: `${origin}/api/vpm/packages/${pkg.fileName}`,
            zipSHA256: pkg.sha256,
          },
        },
      },
    },
  };
}
