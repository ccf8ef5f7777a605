import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { call, FAST_IDENTIFY, waitFor } from './discord-helpers.js';
import { type Frame, RawGateway } from './discord-raw-gateway.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
const GUILD_PRESENCES = 1 << 8;
const hangout = seedGuildIds.hangout;
const dance = seedGuildIds.danceClub;

type GuildCreate = { id: string; members: { user: { id: string } }[]; member_count: number; large: boolean };
type Chunk = {
  guild_id: string;
  members: { user: { id: string; username: string }; nick: string | null }[];
  chunk_index: number;
  chunk_count: number;
  not_found?: string[];
  nonce?: string;
};

let sim: RunningSimulator;
let url: string;
const clients: RawGateway[] = [];
const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/discord${path}`, { auth: null, json });

/** A raw gateway client that has identified and received its GUILD_CREATEs. */
async function connect(intents: number, extra: Record<string, unknown> = {}) {
  const c = new RawGateway(url);
  clients.push(c);
  await c.opened;
  c.identify(intents, discordApp.botToken, extra);
  await waitFor(() => c.dispatches('GUILD_CREATE').length === 2);
  return c;
}
const guildCreate = (c: RawGateway, id: string) =>
  c.dispatches('GUILD_CREATE').find((f) => f.d.id === id)!.d as unknown as GuildCreate;
const chunk = (f: Frame) => f.d as unknown as Chunk;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, gatewayHeartbeatMs: 5000, discordGateway: FAST_IDENTIFY });
  url = ((await call(sim.url, 'GET', '/api/v10/gateway/bot')).body as { url: string }).url;
});
beforeEach(async () => {
  await control('POST', '/reset');
  // Dance Club grows to 2,500 members (35 seeded + 2,465 bulk).
  expect((await control('POST', `/guilds/${dance.id}/bulk-members`, { count: 2465 })).status).toBe(201);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.ws.terminate();
});
afterAll(() => sim.close());

describe('GUILD_CREATE members follow the intents', () => {
  it('without GUILD_PRESENCES: only the bot’s own member, member_count the total', async () => {
    const c = await connect(GUILDS | GUILD_MEMBERS);
    const small = guildCreate(c, hangout.id);
    expect(small.members.map((m) => m.user.id)).toEqual([discordApp.botUserId]);
    expect(small).toMatchObject({ member_count: 41, large: false });
    const big = guildCreate(c, dance.id);
    expect(big.members.map((m) => m.user.id)).toEqual([discordApp.botUserId]);
    expect(big).toMatchObject({ member_count: 2500, large: true });
  });

  it('with GUILD_PRESENCES: everyone up to large_threshold, above it only the (online) bot', async () => {
    await control('PATCH', '/application', { guildPresencesIntent: true });
    const c = await connect(GUILDS | GUILD_PRESENCES);
    expect(guildCreate(c, hangout.id).members).toHaveLength(41);
    expect(guildCreate(c, dance.id).members.map((m) => m.user.id)).toEqual([discordApp.botUserId]);
    // A threshold below the guild's size makes it large: only the bot again.
    const low = await connect(GUILDS | GUILD_PRESENCES, { large_threshold: 50 });
    expect(guildCreate(low, hangout.id)).toMatchObject({ large: false, member_count: 41 });
    await control('POST', `/guilds/${hangout.id}/bulk-members`, { count: 20 });
    const after = await connect(GUILDS | GUILD_PRESENCES, { large_threshold: 50 });
    expect(guildCreate(after, hangout.id)).toMatchObject({ large: true, member_count: 61 });
    expect(guildCreate(after, hangout.id).members).toHaveLength(1);
    const wide = await connect(GUILDS | GUILD_PRESENCES, { large_threshold: 250 });
    expect(guildCreate(wide, hangout.id).members).toHaveLength(61);
  });
});

describe('privileged intents are an application setting', () => {
  it('defaults to Guild Members on, presences off; flags say so in REST and READY', async () => {
    expect((await control('GET', '/application')).body).toEqual({
      guildMembersIntent: true,
      guildPresencesIntent: false,
      messageContentIntent: false,
      flags: 1 << 15,
    });
    const app = await call(sim.url, 'GET', '/api/v10/applications/@me');
    expect((app.body as { flags: number }).flags).toBe(1 << 15);
    await control('PATCH', '/application', { guildPresencesIntent: true });
    const c = await connect(GUILDS);
    expect(c.dispatches('READY')[0].d).toMatchObject({ application: { flags: (1 << 13) | (1 << 15) } });
  });

  it('closes with 4014 when IDENTIFY asks for a privileged intent that is off', async () => {
    const c = new RawGateway(url);
    clients.push(c);
    await c.opened;
    c.identify(GUILDS | GUILD_PRESENCES);
    expect(await c.closed()).toBe(4014);
  });

  it('switching Guild Members off closes live sessions (4003); then REST lists 403, one member still reads', async () => {
    const c = await connect(GUILDS | GUILD_MEMBERS);
    await control('PATCH', '/application', { guildMembersIntent: false });
    expect(await c.closed()).toBe(4003);
    const list = await call(sim.url, 'GET', `/api/v10/guilds/${hangout.id}/members?limit=10`);
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ message: 'Missing Access', code: 50001 });
    const one = await call(sim.url, 'GET', `/api/v10/guilds/${hangout.id}/members/${seedUserIds.admin}`);
    expect(one.status).toBe(200);
    const again = new RawGateway(url);
    clients.push(again);
    await again.opened;
    again.identify(GUILDS | GUILD_MEMBERS);
    expect(await again.closed()).toBe(4014);
    expect((await call(sim.url, 'GET', '/api/v10/applications/@me')).body).toMatchObject({ flags: 0 });
  });

  it('without the intent: no member events except the bot’s own update; op 8 for everyone gets nothing', async () => {
    await control('PATCH', '/application', { guildMembersIntent: false });
    const c = await connect(GUILDS);
    await control('POST', `/guilds/${hangout.id}/members`, { username: 'quiet_joiner' });
    await control('PATCH', `/guilds/${hangout.id}/members/${seedUserIds.admin}`, { nick: 'Boss' });
    await control('PATCH', `/guilds/${hangout.id}/members/${discordApp.botUserId}`, { nick: 'Linker' });
    const self = await c.next((f) => f.t === 'GUILD_MEMBER_UPDATE');
    expect(self.d).toMatchObject({ user: { id: discordApp.botUserId }, nick: 'Linker' });
    expect(c.dispatches('GUILD_MEMBER_ADD')).toEqual([]);
    expect(c.dispatches('GUILD_MEMBER_UPDATE')).toHaveLength(1);
    c.send(8, { guild_id: hangout.id, query: '', limit: 0, nonce: 'all' });
    c.send(8, { guild_id: hangout.id, query: 'blu', limit: 10, nonce: 'blu' });
    // The prefix query is answered; the full list, asked for first, never is.
    await c.chunks('blu');
    await new Promise((r) => setTimeout(r, 100));
    expect(c.dispatches('GUILD_MEMBERS_CHUNK').filter((f) => f.d.nonce === 'all')).toEqual([]);
    expect(c.closeCode).toBeNull();
  });
});

describe('Request Guild Members (op 8)', () => {
  it('streams a 2,500-member guild in 3 chunks of at most 1,000 with index, count and nonce', async () => {
    const c = await connect(GUILDS | GUILD_MEMBERS);
    c.send(8, { guild_id: dance.id, query: '', limit: 0, nonce: 'full' });
    const chunks = (await c.chunks('full')).map(chunk);
    expect(chunks.map((x) => [x.chunk_index, x.chunk_count, x.members.length])).toEqual([
      [0, 3, 1000],
      [1, 3, 1000],
      [2, 3, 500],
    ]);
    const ids = new Set(chunks.flatMap((x) => x.members.map((m) => m.user.id)));
    expect(ids.size).toBe(2500);
    expect(chunks.every((x) => x.guild_id === dance.id && x.nonce === 'full')).toBe(true);
  });

  it('allows the full list once per guild per 30 s: then RATE_LIMITED and no chunks', async () => {
    const c = await connect(GUILDS | GUILD_MEMBERS);
    c.send(8, { guild_id: dance.id, query: '', limit: 0, nonce: 'first' });
    await c.chunks('first');
    c.send(8, { guild_id: dance.id, query: '', limit: 0, nonce: 'second' });
    const limited = await c.next((f) => f.t === 'RATE_LIMITED');
    expect(limited.d).toMatchObject({ opcode: 8, meta: { guild_id: dance.id, nonce: 'second' } });
    const retry = (limited.d as { retry_after: number }).retry_after;
    expect(retry).toBeGreaterThan(25);
    expect(retry).toBeLessThanOrEqual(30);
    // The window is per guild (and per bot, not per connection).
    c.send(8, { guild_id: hangout.id, query: '', limit: 0, nonce: 'other' });
    await c.chunks('other');
    const second = await connect(GUILDS | GUILD_MEMBERS);
    second.send(8, { guild_id: dance.id, query: '', limit: 0, nonce: 'elsewhere' });
    await second.next((f) => f.t === 'RATE_LIMITED');
    // Queries and user ids are not part of that rule.
    c.send(8, { guild_id: dance.id, query: 'a', limit: 5, nonce: 'q' });
    await c.chunks('q');
    expect(c.dispatches('GUILD_MEMBERS_CHUNK').filter((f) => f.d.nonce === 'second')).toEqual([]);
    // The window is configurable for tests.
    await control('PATCH', '/rate-limits', { requestMembersIntervalMs: 50 });
    await new Promise((r) => setTimeout(r, 60));
    c.send(8, { guild_id: dance.id, query: '', limit: 0, nonce: 'later' });
    expect(await c.chunks('later')).toHaveLength(3);
  });

  it('closes with 4001 when guild_id is a list (refused since API v8) or the payload is invalid', async () => {
    const bad = [
      { guild_id: [hangout.id, dance.id], query: '', limit: 0 },
      { guild_id: hangout.id, limit: 0 },
      { guild_id: hangout.id, query: 'a' },
      { guild_id: hangout.id, user_ids: Array.from({ length: 101 }, (_, i) => String(1e17 + i)) },
    ];
    for (const d of bad) {
      const c = await connect(GUILDS | GUILD_MEMBERS);
      c.send(8, d);
      expect(await c.closed()).toBe(4001);
    }
  });

  it('a non-empty query is a case-insensitive username/nick prefix, capped at 100', async () => {
    const c = await connect(GUILDS | GUILD_MEMBERS);
    c.send(8, { guild_id: dance.id, query: 'S', limit: 1000, nonce: 's' });
    const [found] = (await c.chunks('s')).map(chunk);
    expect(found.members).toHaveLength(100);
    for (const m of found.members)
      expect(m.user.username.startsWith('s') || m.nick?.toLowerCase().startsWith('s')).toBe(true);
    c.send(8, { guild_id: dance.id, query: 's', limit: 7, nonce: 'seven' });
    expect((await c.chunks('seven')).map(chunk)[0].members).toHaveLength(7);
    c.send(8, { guild_id: dance.id, query: 'zzzzqq', limit: 10, nonce: 'none' });
    expect((await c.chunks('none')).map(chunk)[0]).toMatchObject({ members: [], chunk_count: 1 });
  });

  it('user_ids (up to 100) answer those members and list the rest as not_found; long nonces are dropped', async () => {
    const c = await connect(GUILDS | GUILD_MEMBERS);
    const missing = '1299999999999999999';
    c.send(8, {
      guild_id: hangout.id,
      user_ids: [seedUserIds.admin, seedUserIds.humans[2], missing],
      nonce: 'ids',
    });
    const [byId] = (await c.chunks('ids')).map(chunk);
    expect(byId.members.map((m) => m.user.id).sort()).toEqual(
      [seedUserIds.admin, seedUserIds.humans[2]].sort(),
    );
    expect(byId.not_found).toEqual([missing]);
    c.send(8, { guild_id: hangout.id, user_ids: seedUserIds.admin, nonce: 'x'.repeat(33) });
    const plain = await c.next((f) => f.t === 'GUILD_MEMBERS_CHUNK' && f.d.nonce === undefined);
    expect(chunk(plain).members.map((m) => m.user.id)).toEqual([seedUserIds.admin]);
  });
});
