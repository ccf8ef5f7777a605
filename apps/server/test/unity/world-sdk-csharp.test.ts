// The world SDK's C# core (LZW decoder + world-data reader, shipped in the VPM package) against bodies the
// server's own code produced: a change on either side that breaks the other fails here. Needs Mono (mcs);
// see mono.ts for when it skips.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeWorldBody, lzwCompress, toTransportText } from '../../src/wings/worlds/worlds/codec/lzw.js';
import {
  buildWorldData,
  type WorldDataSettings,
  type WorldDataSources,
} from '../../src/wings/worlds/worlds/world-data/build-world-data.js';
import { compileCSharp, monoStatus, packageDir } from './mono.js';

const ADMIN = '1100000000000000000';
const SUPPORTER = '1200000000000000000';
const MEMBER = '1300000000000000000';
const GUEST = '1400000000000000000';

function settings(overrides: Partial<WorldDataSettings> = {}): WorldDataSettings {
  return {
    includeDiscordData: true,
    includeGroupData: true,
    jsonMode: false,
    customData: '',
    discordEncodeRoles: [ADMIN, SUPPORTER],
    discordAlwaysEncodeRoles: [MEMBER, GUEST],
    groupEncodeRoles: ['grol_owner', 'grol_staff'],
    groupAlwaysEncodeRoles: [],
    ...overrides,
  };
}

function sources(overrides: Partial<WorldDataSources> = {}): WorldDataSources {
  return {
    now: new Date('2026-01-02T03:04:05.678Z'),
    discordRoles: [
      { id: ADMIN, name: 'Admin', position: 10 },
      { id: SUPPORTER, name: 'Supporter ⭐', position: 5 },
      { id: MEMBER, name: 'Member', position: 1 },
      { id: GUEST, name: 'Guest', position: 2 },
    ],
    members: [
      { vrcDisplayName: 'Alice', roleIds: [ADMIN, MEMBER], plus18: true },
      { vrcDisplayName: 'Zoë "Z" Ünal', roleIds: [SUPPORTER, MEMBER], plus18: false },
      { vrcDisplayName: '日本語の名前', roleIds: [SUPPORTER], plus18: true },
      { vrcDisplayName: '🐱 Cat\\Back', roleIds: [MEMBER], plus18: true },
    ],
    guests: [{ vrcDisplayName: 'Visitor Ω', guestRoleId: GUEST }],
    groupRoles: [
      { id: 'grol_owner', name: 'Owner', order: 0 },
      { id: 'grol_staff', name: 'Staff', order: 1 },
    ],
    groupMembers: [
      { vrcDisplayName: 'Alice', roleIds: ['grol_owner', 'grol_staff'] },
      { vrcDisplayName: 'Ďave', roleIds: ['grol_staff'] },
    ],
    atlas: null,
    ...overrides,
  };
}

const atlas: WorldDataSources['atlas'] = {
  metaData: [
    { slotId: 0, atlasIndex: 0, x: 0, y: 0, width: 512, height: 256 },
    { slotId: 7, atlasIndex: 0, x: 512, y: 0, width: 300, height: 512 },
    { slotId: 3, atlasIndex: 1, x: 1024, y: 1536, width: 1024, height: 512 },
  ],
  lastGeneration: '2026-01-02T03:00:00.000Z',
  variation: 1,
};

/** About 190,000 characters of JSON: thousands of members under always-encoded roles. */
function largeSources(): WorldDataSources {
  const members = Array.from({ length: 4570 }, (_, i) => ({
    vrcDisplayName: `Member ${i} ✨ ${'ÄÖÜ'.repeat(i % 5)}`,
    roleIds: i % 3 === 0 ? [MEMBER, SUPPORTER] : [MEMBER],
    plus18: i % 2 === 0,
  }));
  return sources({ members, guests: [], atlas });
}

interface Fixture {
  name: string;
  doc: Record<string, unknown>;
  body: string;
}

function fixture(name: string, doc: Record<string, unknown>, compress: boolean): Fixture {
  return { name, doc, body: encodeWorldBody(JSON.stringify(doc), compress) };
}

const docs = {
  plain: buildWorldData(settings({ customData: 'line 1\nline "2" \\ é' }), sources()),
  jsonCustomData: buildWorldData(
    settings({
      jsonMode: true,
      customData: '{"motd":"Héllo 🌍","n":[1,2.5,-3e2],"deep":{"a":[true,false,null]}}',
    }),
    sources({ atlas }),
  ),
  noRoles: buildWorldData(
    settings({ includeDiscordData: false, includeGroupData: false, jsonMode: true, customData: '' }),
    sources(),
  ),
  large: buildWorldData(settings(), largeSources()),
};

const fixtures: Fixture[] = [
  fixture('plain body', docs.plain, false),
  fixture('compressed body', docs.plain, true),
  fixture('plain body with JSON custom data and AtlasDetail', docs.jsonCustomData, false),
  fixture('compressed body with JSON custom data and AtlasDetail', docs.jsonCustomData, true),
  fixture('compressed body without role data', docs.noRoles, true),
  fixture('plain ~190,000-character body', docs.large, false),
  fixture('compressed ~190,000-character body', docs.large, true),
];

interface CSharpAnswer {
  document: Record<string, unknown>;
  customDataText: string | null;
  queries: Record<string, { plus18: boolean; guildRoles: string[]; groupRoles: string[] }>;
  roleIds: Record<string, string>;
  uv2048: number[][];
}

/** What the C# query methods must answer, computed here from the server's own object. */
function expectedQueries(doc: Record<string, unknown>): CSharpAnswer['queries'] {
  const guild = (doc.GuildUsers ?? {}) as Record<string, string[]>;
  const group = (doc.GroupUsers ?? {}) as Record<string, string[]>;
  const age = (doc.AgeVerifiedUsers ?? []) as string[];
  const names = new Set([...Object.values(guild).flat(), ...Object.values(group).flat(), ...age]);
  return Object.fromEntries(
    [...names].map((name) => [
      name,
      {
        plus18: age.includes(name),
        guildRoles: Object.keys(guild).filter((role) => guild[role].includes(name)),
        groupRoles: Object.keys(group).filter((role) => group[role].includes(name)),
      },
    ]),
  );
}

/**
 * Bytes that fill the dictionary exactly (all consecutive pairs of 0..254 distinct: entries 256..16382), then
 * use the last entry 16382 and the first entry 256 after it filled (see lzw.test.ts for the codes).
 */
function dictionaryBoundaryBytes(): Uint8Array {
  const sequence: number[] = [];
  for (let a = 0; a < 255 && sequence.length < 16_128; a++) {
    sequence.push(a);
    for (let b = a + 1; b < 255; b++) sequence.push(a, b);
  }
  const prefix = sequence.slice(0, 16_128);
  const [y, z] = prefix.slice(-2);
  return Uint8Array.from([...prefix, 255, y, z, 255, prefix[0], prefix[1], 255, z, 255]);
}

const mono = monoStatus();

describe.skipIf(!mono.available)('world SDK C# core decodes what the server serves (Mono)', () => {
  const answers = new Map<string, CSharpAnswer | string | null>();

  beforeAll(() => {
    const exe = compileCSharp(
      [
        join(__dirname, 'WorldDataCheck.cs'),
        join(packageDir, 'Runtime/Core/VRCLinkLzw.cs'),
        join(packageDir, 'Runtime/Core/VRCLinkWorldDocument.cs'),
      ],
      { target: 'exe', out: 'check.exe' },
    );
    const dir = mkdtempSync(join(tmpdir(), 'vrclink-fixtures-'));
    const extra = [
      // Not a document the SDK accepts: no Version.
      { name: 'no Version', body: JSON.stringify({ LastUpdated: 'x', MemberCount: 0 }) },
      // A compressed body whose first code refers to a dictionary entry that does not exist yet.
      { name: 'corrupt compressed body', body: String.fromCharCode(0xff, 0xff, 0x00, 0x00) },
    ];
    const all = [...fixtures, ...extra];
    const paths = all.map((f, i) => {
      const path = join(dir, `${i}.txt`);
      // Served UTF-8 encoded, as the server sends it.
      writeFileSync(path, f.body, 'utf8');
      return path;
    });
    const boundary = join(dir, 'boundary.txt');
    writeFileSync(boundary, toTransportText(lzwCompress(dictionaryBoundaryBytes())), 'utf8');
    paths.push(`raw:${boundary}`);
    all.push({ name: 'dictionary boundary', body: '' });
    const lines = execFileSync('mono', [exe, ...paths], { encoding: 'utf8', maxBuffer: 64 << 20 })
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(all.length);
    for (const [i, f] of all.entries()) answers.set(f.name, JSON.parse(lines[i]));
  });

  it('the large fixture is about 190,000 characters and the compressed ones do not start with {', () => {
    const large = fixtures.find((f) => f.name === 'plain ~190,000-character body');
    expect(large?.body.length).toBeGreaterThanOrEqual(185_000);
    expect(large?.body.length).toBeLessThanOrEqual(200_000);
    for (const f of fixtures.filter((f) => f.name.startsWith('compressed'))) expect(f.body[0]).not.toBe('{');
  });

  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: reads the same document, in the same order',
    (_, f) => {
      const answer = answers.get(f.name) as CSharpAnswer | null;
      expect(answer).not.toBeNull();
      // Same keys, values and order as the JSON the server serialised (role lists keep the manager's order).
      expect(JSON.stringify(answer?.document)).toBe(JSON.stringify(f.doc));
    },
  );

  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: the query methods answer as the server object says',
    (_, f) => {
      const answer = answers.get(f.name) as CSharpAnswer;
      expect(answer.queries).toEqual(expectedQueries(f.doc));
      expect(answer.roleIds).toEqual(f.doc.GuildRoleMap ?? {});
      expect(answer.customDataText).toBe(typeof f.doc.CustomData === 'string' ? f.doc.CustomData : null);
    },
  );

  it('maps AtlasDetail rectangles (top-left origin) to material tiling and offset (bottom-left origin)', () => {
    const answer = answers.get('compressed body with JSON custom data and AtlasDetail') as CSharpAnswer;
    const expected = (atlas?.metaData ?? []).map((s) => [
      s.width / 2048,
      s.height / 2048,
      s.x / 2048,
      1 - (s.y + s.height) / 2048,
    ]);
    expect(answer.uv2048).toHaveLength(expected.length);
    answer.uv2048.forEach((uv, i) => {
      uv.forEach((v, k) => {
        expect(v).toBeCloseTo(expected[i][k], 6);
      });
    });
  });

  it('decodes a stream that fills the dictionary, then uses its last entry (16382) and its first (no reset)', () => {
    expect(answers.get('dictionary boundary')).toBe(Buffer.from(dictionaryBoundaryBytes()).toString('hex'));
  });

  it('rejects a document without Version and a corrupt compressed body', () => {
    expect(answers.get('no Version')).toBeNull();
    expect(answers.get('corrupt compressed body')).toBeNull();
  });
});
