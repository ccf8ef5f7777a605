import { describe, expect, it } from 'vitest';
import {
  buildWorldData,
  WORLD_DATA_VERSION,
  WorldDataError,
  type WorldDataSettings,
  type WorldDataSources,
} from './build-world-data.js';
import { encodeRoleUsers } from './pick-roles.js';

// Realistic Discord snowflakes (JS objects would move small integer-like keys to the front).
const ADMIN = '1100000000000000000';
const MOD = '1200000000000000000';
const MEMBER = '1300000000000000000';
const SUPPORTER = '1400000000000000000';
const GUEST = '1500000000000000000';
const GONE_1 = '1998000000000000000';
const GONE_2 = '1999000000000000000';

const NOW = new Date('2024-05-01T12:00:00.000Z');

function settings(overrides: Partial<WorldDataSettings> = {}): WorldDataSettings {
  return {
    includeDiscordData: true,
    includeGroupData: true,
    jsonMode: false,
    customData: '',
    discordEncodeRoles: [],
    discordAlwaysEncodeRoles: [],
    groupEncodeRoles: [],
    groupAlwaysEncodeRoles: [],
    ...overrides,
  };
}

function sources(overrides: Partial<WorldDataSources> = {}): WorldDataSources {
  return {
    now: NOW,
    discordRoles: [
      { id: ADMIN, name: 'Admin', position: 10 },
      { id: MOD, name: 'Moderator', position: 5 },
      { id: MEMBER, name: 'Member', position: 1 },
      { id: SUPPORTER, name: 'Supporter', position: 3 },
      { id: GUEST, name: 'Guest', position: 2 },
    ],
    members: [
      {
        vrcDisplayName: 'Alice',
        roleIds: [ADMIN, MOD, MEMBER],
        plus18: true,
      },
      {
        vrcDisplayName: 'Bob',
        roleIds: [MOD, MEMBER, SUPPORTER],
        plus18: false,
      },
      { vrcDisplayName: 'Carol', roleIds: [MEMBER], plus18: true },
    ],
    guests: [],
    groupRoles: [
      { id: 'grol_owner', name: 'Owner', order: 0 },
      { id: 'grol_staff', name: 'Staff', order: 1 },
      { id: 'grol_everyone', name: 'Everyone', order: 2 },
    ],
    groupMembers: [
      { vrcDisplayName: 'Alice', roleIds: ['grol_owner', 'grol_staff', 'grol_everyone'] },
      { vrcDisplayName: 'Dave', roleIds: ['grol_everyone'] },
    ],
    atlas: null,
    ...overrides,
  };
}

describe('buildWorldData: Discord roles', () => {
  it('lists each person only under the highest selected encode role they hold', () => {
    const doc = buildWorldData(settings({ discordEncodeRoles: [MEMBER, MOD, ADMIN] }), sources());
    expect(doc.GuildUsers).toEqual({ Member: ['Carol'], Moderator: ['Bob'], Admin: ['Alice'] });
  });

  it('lists each person under every selected always-encode role they hold', () => {
    const doc = buildWorldData(settings({ discordAlwaysEncodeRoles: [ADMIN, MEMBER] }), sources());
    expect(doc.GuildUsers).toEqual({ Admin: ['Alice'], Member: ['Alice', 'Bob', 'Carol'] });
  });

  it('combines encode and always roles: the highest-role rule applies only among encode roles', () => {
    const doc = buildWorldData(
      settings({
        discordEncodeRoles: [ADMIN, MEMBER],
        discordAlwaysEncodeRoles: [SUPPORTER],
      }),
      sources(),
    );
    expect(doc.GuildUsers).toEqual({ Admin: ['Alice'], Member: ['Bob', 'Carol'], Supporter: ['Bob'] });
  });

  it('keeps keys in picker order, encode roles first and then always roles', () => {
    const doc = buildWorldData(
      settings({
        discordEncodeRoles: [MEMBER, ADMIN],
        discordAlwaysEncodeRoles: [SUPPORTER, MOD],
      }),
      sources(),
    );
    expect(Object.keys(doc.GuildUsers as object)).toEqual(['Member', 'Admin', 'Supporter', 'Moderator']);
    expect(Object.keys(doc.GuildRoleMap as object)).toEqual([MEMBER, ADMIN, SUPPORTER, MOD]);
  });

  it('gives every selected role a key even when nobody holds it', () => {
    const doc = buildWorldData(
      settings({
        discordEncodeRoles: [GUEST],
        discordAlwaysEncodeRoles: [SUPPORTER],
      }),
      sources({ members: [] }),
    );
    expect(doc.GuildUsers).toEqual({ Guest: [], Supporter: [] });
    expect(doc.GuildRoleMap).toEqual({ [GUEST]: 'Guest', [SUPPORTER]: 'Supporter' });
  });

  it('skips selected role ids that no longer exist', () => {
    const doc = buildWorldData(
      settings({
        discordEncodeRoles: [GONE_2, MEMBER],
        discordAlwaysEncodeRoles: [GONE_1],
      }),
      sources(),
    );
    expect(doc.GuildUsers).toEqual({ Member: ['Alice', 'Bob', 'Carol'] });
    expect(doc.GuildRoleMap).toEqual({ [MEMBER]: 'Member' });
  });

  it('merges the lists of selected roles that share a name', () => {
    const doc = buildWorldData(
      settings({ discordAlwaysEncodeRoles: [ADMIN, MOD] }),
      sources({
        discordRoles: [
          { id: ADMIN, name: 'Staff', position: 10 },
          { id: MOD, name: 'Staff', position: 5 },
        ],
      }),
    );
    expect(doc.GuildUsers).toEqual({ Staff: ['Alice', 'Bob'] });
    expect(doc.GuildRoleMap).toEqual({ [ADMIN]: 'Staff', [MOD]: 'Staff' });
  });

  it('sorts names inside each list', () => {
    const doc = buildWorldData(
      settings({ discordAlwaysEncodeRoles: [MEMBER] }),
      sources({
        members: ['zed', 'Émile', 'bob', 'Anna'].map((name) => ({
          vrcDisplayName: name,
          roleIds: [MEMBER],
          plus18: false,
        })),
      }),
    );
    expect(doc.GuildUsers).toEqual({ Member: ['Anna', 'bob', 'Émile', 'zed'] });
  });

  it('lists guests under the guest role name, merged with members and deduplicated', () => {
    const doc = buildWorldData(
      settings({
        discordEncodeRoles: [ADMIN, GUEST],
        discordAlwaysEncodeRoles: [MEMBER],
      }),
      sources({
        guests: [
          { vrcDisplayName: 'Gina', guestRoleId: GUEST },
          { vrcDisplayName: 'Gina', guestRoleId: GUEST },
          { vrcDisplayName: 'Carol', guestRoleId: GUEST },
          { vrcDisplayName: 'Alice', guestRoleId: GUEST },
        ],
      }),
    );
    // Alice holds Admin, which outranks Guest among the encode roles.
    expect(doc.GuildUsers).toEqual({
      Admin: ['Alice'],
      Guest: ['Carol', 'Gina'],
      Member: ['Alice', 'Bob', 'Carol'],
    });
  });

  it('lists only plus18 members in AgeVerifiedUsers, sorted and deduplicated', () => {
    const doc = buildWorldData(
      settings(),
      sources({
        members: [
          { vrcDisplayName: 'Zoe', roleIds: [], plus18: true },
          { vrcDisplayName: 'Bob', roleIds: [], plus18: false },
          { vrcDisplayName: 'Alice', roleIds: [], plus18: true },
          { vrcDisplayName: 'Alice', roleIds: [], plus18: true },
        ],
        guests: [{ vrcDisplayName: 'Gina', guestRoleId: GUEST }],
      }),
    );
    expect(doc.AgeVerifiedUsers).toEqual(['Alice', 'Zoe']);
  });
});

describe('buildWorldData: VRChat group roles', () => {
  it('uses the lowest order as the highest role for encode roles', () => {
    const doc = buildWorldData(settings({ groupEncodeRoles: ['grol_everyone', 'grol_owner'] }), sources());
    expect(doc.GroupUsers).toEqual({ Everyone: ['Dave'], Owner: ['Alice'] });
    expect(doc.GroupRoleMap).toEqual({ grol_everyone: 'Everyone', grol_owner: 'Owner' });
  });

  it('lists group members under every always-encode role they hold', () => {
    const doc = buildWorldData(
      settings({ groupEncodeRoles: ['grol_owner'], groupAlwaysEncodeRoles: ['grol_everyone', 'grol_gone'] }),
      sources(),
    );
    expect(doc.GroupUsers).toEqual({ Owner: ['Alice'], Everyone: ['Alice', 'Dave'] });
    expect(doc.GroupRoleMap).toEqual({ grol_owner: 'Owner', grol_everyone: 'Everyone' });
  });
});

describe('buildWorldData: always-present keys', () => {
  it('sets Version, LastUpdated and MemberCount from distinct linked member names', () => {
    const doc = buildWorldData(
      settings(),
      sources({
        members: [
          { vrcDisplayName: 'Alice', roleIds: [], plus18: false },
          { vrcDisplayName: 'Alice', roleIds: [], plus18: false },
          { vrcDisplayName: 'Bob', roleIds: [], plus18: false },
        ],
        guests: [{ vrcDisplayName: 'Gina', guestRoleId: GUEST }],
      }),
    );
    expect(doc.Version).toBe(WORLD_DATA_VERSION);
    expect(doc.LastUpdated).toBe('2024-05-01T12:00:00.000Z');
    expect(doc.MemberCount).toBe(2);
  });

  it('embeds Custom World Data as parsed JSON in JSON mode', () => {
    const doc = buildWorldData(settings({ jsonMode: true, customData: '{"a":[1,2],"b":"x"}' }), sources());
    expect(doc.CustomData).toEqual({ a: [1, 2], b: 'x' });
  });

  it('embeds null for empty Custom World Data in JSON mode', () => {
    expect(
      buildWorldData(settings({ jsonMode: true, customData: '  \n ' }), sources()).CustomData,
    ).toBeNull();
  });

  it('throws WorldDataError with the exact message for invalid JSON in JSON mode', () => {
    const build = () => buildWorldData(settings({ jsonMode: true, customData: '{not json' }), sources());
    expect(build).toThrow(WorldDataError);
    expect(build).toThrow(/^Custom World Data is not valid JSON\.$/);
  });

  it('embeds Custom World Data as the string as is outside JSON mode', () => {
    const doc = buildWorldData(settings({ customData: ' {"a":1} hello ' }), sources());
    expect(doc.CustomData).toBe(' {"a":1} hello ');
  });
});

describe('buildWorldData: optional sections', () => {
  it('omits Discord keys when Include Discord Data is off', () => {
    const doc = buildWorldData(
      settings({ includeDiscordData: false, discordEncodeRoles: [ADMIN] }),
      sources(),
    );
    expect(doc).not.toHaveProperty('GuildUsers');
    expect(doc).not.toHaveProperty('GuildRoleMap');
    expect(doc).not.toHaveProperty('AgeVerifiedUsers');
    expect(doc).toHaveProperty('GroupUsers');
  });

  it('omits group keys when Include Group Data is off', () => {
    const doc = buildWorldData(
      settings({ includeGroupData: false, groupEncodeRoles: ['grol_owner'] }),
      sources(),
    );
    expect(doc).not.toHaveProperty('GroupUsers');
    expect(doc).not.toHaveProperty('GroupRoleMap');
    expect(doc).toHaveProperty('GuildUsers');
  });

  it('maps the atlas to AtlasDetail with PascalCase keys', () => {
    const doc = buildWorldData(
      settings(),
      sources({
        atlas: {
          metaData: [{ slotId: 7, atlasIndex: 1, x: 0, y: 512, width: 256, height: 128 }],
          lastGeneration: '2024-04-30T10:00:00.000Z',
          variation: 1,
        },
      }),
    );
    expect(doc.AtlasDetail).toEqual({
      MetaData: [{ SlotId: 7, AtlasIndex: 1, X: 0, Y: 512, Width: 256, Height: 128 }],
      LastGeneration: '2024-04-30T10:00:00.000Z',
      Variation: 1,
    });
  });

  it('omits AtlasDetail when there is no atlas', () => {
    expect(buildWorldData(settings(), sources())).not.toHaveProperty('AtlasDetail');
  });

  it('emits keys in the document order', () => {
    const doc = buildWorldData(
      settings({ jsonMode: true, customData: '{}' }),
      sources({ atlas: { metaData: [], lastGeneration: '2024-04-30T10:00:00.000Z', variation: 0 } }),
    );
    expect(Object.keys(doc)).toEqual([
      'Version',
      'LastUpdated',
      'MemberCount',
      'GuildUsers',
      'GuildRoleMap',
      'AgeVerifiedUsers',
      'GroupUsers',
      'GroupRoleMap',
      'AtlasDetail',
      'CustomData',
    ]);
  });
});

describe('encodeRoleUsers', () => {
  it('treats a role name like "__proto__" as an ordinary key', () => {
    const { users } = encodeRoleUsers(
      [],
      ['r1'],
      [{ id: 'r1', name: '__proto__', rank: 0 }],
      [{ name: 'Alice', roleIds: ['r1'] }],
    );
    expect(Object.hasOwn(users, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(users))).toEqual(JSON.parse('{"__proto__":["Alice"]}'));
  });

  it('breaks equal ranks among encode roles by picker order and ignores empty names', () => {
    const { users } = encodeRoleUsers(
      ['b', 'a'],
      [],
      [
        { id: 'a', name: 'A', rank: 1 },
        { id: 'b', name: 'B', rank: 1 },
      ],
      [
        { name: 'Alice', roleIds: ['a', 'b'] },
        { name: '', roleIds: ['a'] },
      ],
    );
    expect(users).toEqual({ B: ['Alice'], A: [] });
  });
});
