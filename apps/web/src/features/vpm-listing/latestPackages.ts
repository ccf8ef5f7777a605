import type { VpmListing } from './api/vpmListing';

export interface PackageSummary {
  /** The package id, e.g. com.vrclink.worlds-sdk. */
  name: string;
  displayName: string;
  version: string;
  description: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value : undefined;

function parseVersion(version: string): { core: number[]; pre: string | undefined } {
  const [core = '', ...pre] = version.split('+')[0].split('-');
  return {
    core: core.split('.').map((part) => Number.parseInt(part, 10) || 0),
    pre: pre.join('-') || undefined,
  };
}

/** Semantic-version order: numbers part by part, then a release after its pre-releases. */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  for (let i = 0; i < Math.max(left.core.length, right.core.length); i++) {
    const diff = (left.core[i] ?? 0) - (right.core[i] ?? 0);
    if (diff !== 0) return diff;
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return left.pre.localeCompare(right.pre, 'en', { numeric: true });
}

/** Each package of a VPM listing at its latest version, with the fields its box shows. */
export function latestPackages(listing: VpmListing): PackageSummary[] {
  return Object.entries(listing.packages).flatMap(([id, { versions }]) => {
    const latest = Object.keys(versions).sort(compareVersions).at(-1);
    if (latest === undefined) return [];
    const manifest = versions[latest];
    return [
      {
        name: text(manifest.name) ?? id,
        displayName: text(manifest.displayName) ?? text(manifest.name) ?? id,
        version: text(manifest.version) ?? latest,
        description: text(manifest.description) ?? '',
      },
    ];
  });
}

/** The Creator Companion's deep link that adds a repository by its listing address. */
export function addToVccUrl(listingUrl: string): string {
  return `vcc://vpm/addRepo?url=${encodeURIComponent(listingUrl)}`;
}
