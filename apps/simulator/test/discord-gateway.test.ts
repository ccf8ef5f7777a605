import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { call, FAST_IDENTIFY, waitFor } from './discord-helpers.js';
import { RawGateway } from './discord-raw-gateway.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
const hangout = seedGuildIds.hangout;

describe('the Discord gateway (raw protocol)', () => {
  let sim: RunningSimulator;
  let url: string;
  const clients: RawGateway[] = [];
  const open = async () => {
    const c = new RawGateway(url);
    clients.push(c);
    await c.opened;
    return c;
  };
  const control = (method: string, path: string, json?: unknown) =>
    call(sim.url, method, `/control/discord${path}`, { auth: null, json });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, gatewayHeartbeatMs: 5000, discordGateway: FAST_IDENTIFY });
    url = ((await call(sim.url, 'GET', '/api/v10/gateway/bot')).body as { url: string }).url;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.ws.terminate();
  });
  afterAll(() => sim.close());

  it('says HELLO with the configured interval and acknowledges heartbeats', async () => {
    const c = await open();
    const hello = await c.next((f) => f.op === 10);
    expect(hello.d).toMatchObject({ heartbeat_interval: 5000 });
    c.send(1, null);
    await c.next((f) => f.op === 11);
  });

  it('sends READY then one GUILD_CREATE per bot guild, with increasing sequence numbers', async () => {
    const c = await open();
    c.identify(GUILDS | GUILD_MEMBERS);
    const creates = await waitFor(() =>
      c.dispatches('GUILD_CREATE').length === 2 ? c.dispatches('GUILD_CREATE') : null,
    );
    const ready = c.dispatches('READY')[0];
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: discordApp.botUserId, bot: true },
      guilds: [
        { id: hangout.id, unavailable: true },
        { id: seedGuildIds.danceClub.id, unavailable: true },
      ],
      application: { id: discordApp.clientId },
      shard: [0, 1],
      resume_gateway_url: url,
    });
    expect(creates.map((f) => f.s)).toEqual([2, 3]);
    const guild = creates[0].d as {
      members: unknown[];
      member_count: number;
      roles: unknown[];
      channels: unknown[];
    };
    // Without GUILD_PRESENCES only the bot itself, whatever the size; member_count is the total.
    expect(guild.members).toHaveLength(1);
    expect(guild.member_count).toBe(41);
    expect(guild.roles).toHaveLength(8);
    expect(guild.channels).toHaveLength(2);
  });

  it('without GUILD_MEMBERS: only the bot’s own member, and no member events (role events still come)', async () => {
    const c = await open();
    c.identify(GUILDS);
    await waitFor(() => c.dispatches('GUILD_CREATE').length === 2);
    expect((c.dispatches('GUILD_CREATE')[0].d as { members: unknown[] }).members).toHaveLength(1);
    await control('POST', `/guilds/${hangout.id}/members`, { username: 'fresh_face' });
    await control('POST', `/guilds/${hangout.id}/roles`, { name: 'Fresh' });
    await c.next((f) => f.t === 'GUILD_ROLE_CREATE');
    expect(c.dispatches('GUILD_MEMBER_ADD')).toEqual([]);
  });

  it('delivers member add/update/remove and role events to GUILD_MEMBERS clients, not for guilds the bot is not in', async () => {
    const c = await open();
    c.identify(GUILDS | GUILD_MEMBERS);
    await waitFor(() => c.dispatches('GUILD_CREATE').length === 2);
    const userId = seedUserIds.unaffiliated[1];
    await control('POST', `/guilds/${seedGuildIds.quietCorner.id}/members`, { userId });
    await control('POST', `/guilds/${hangout.id}/members`, { userId, roles: [hangout.roles.Newcomer] });
    const add = await c.next((f) => f.t === 'GUILD_MEMBER_ADD');
    expect(add.d).toMatchObject({
      guild_id: hangout.id,
      user: { id: userId },
      roles: [hangout.roles.Newcomer],
    });
    await control('PUT', `/guilds/${hangout.id}/members/${userId}/roles/${hangout.roles.Verified}`);
    const update = await c.next((f) => f.t === 'GUILD_MEMBER_UPDATE');
    expect(update.d).toMatchObject({
      guild_id: hangout.id,
      roles: [hangout.roles.Newcomer, hangout.roles.Verified],
    });
    await control('DELETE', `/guilds/${hangout.id}/members/${userId}`);
    const remove = await c.next((f) => f.t === 'GUILD_MEMBER_REMOVE');
    expect(remove.d).toMatchObject({ guild_id: hangout.id, user: { id: userId } });
    expect(c.dispatches('GUILD_MEMBER_ADD')).toHaveLength(1);
  });

  it('answers op 8 with GUILD_MEMBERS_CHUNK (query prefix, user ids, nonce)', async () => {
    const c = await open();
    c.identify(GUILDS | GUILD_MEMBERS);
    await waitFor(() => c.dispatches('GUILD_CREATE').length === 2);
    c.send(8, { guild_id: hangout.id, query: 'blu', limit: 10, nonce: 'n1' });
    const chunk = await c.next((f) => f.t === 'GUILD_MEMBERS_CHUNK');
    expect(chunk.d).toMatchObject({ guild_id: hangout.id, chunk_index: 0, chunk_count: 1, nonce: 'n1' });
    expect(
      (chunk.d as { members: { user: { username: string } }[] }).members.map((m) => m.user.username),
    ).toEqual(['bluefox']);
    c.send(8, {
      guild_id: hangout.id,
      user_ids: [seedUserIds.admin, '1299999999999999999'],
      limit: 0,
      nonce: 'n2',
    });
    const byId = await c.next(
      (f) => f.t === 'GUILD_MEMBERS_CHUNK' && (f.d as { nonce?: string }).nonce === 'n2',
    );
    expect(byId.d).toMatchObject({ not_found: ['1299999999999999999'] });
  });

  it('RESUME replays what was missed, then RESUMED; an unknown session gets op 9', async () => {
    const c = await open();
    c.identify(GUILDS | GUILD_MEMBERS);
    await waitFor(() => c.dispatches('GUILD_CREATE').length === 2);
    const sessionId = (c.dispatches('READY')[0].d as { session_id: string }).session_id;
    const seq = Math.max(...c.frames.map((f) => f.s ?? 0));
    c.ws.close(4000);
    await c.closed();
    await control('POST', `/guilds/${hangout.id}/roles`, { name: 'While Away' });
    const r = await open();
    r.send(6, { token: discordApp.botToken, session_id: sessionId, seq });
    const resumed = await r.next((f) => f.t === 'RESUMED');
    const replayed = r.dispatches('GUILD_ROLE_CREATE');
    expect(replayed).toHaveLength(1);
    expect(replayed[0].s).toBe(seq + 1);
    // Creating a role shifts the others up: their GUILD_ROLE_UPDATEs were missed and replayed too.
    const replayedSeqs = r.frames.filter((f) => f.op === 0 && f.t !== 'RESUMED').map((f) => f.s);
    expect(replayedSeqs).toEqual(replayedSeqs.map((_, i) => seq + 1 + i));
    expect(resumed.s).toBe(seq + replayedSeqs.length + 1);

    const bad = await open();
    bad.send(6, { token: discordApp.botToken, session_id: 'nope', seq: 1 });
    const invalid = await bad.next((f) => f.op === 9);
    expect(invalid.d).toBe(false);
  });

  it('closes with Discord’s codes: 4004 bad token, 4003 before identify, 4001 unknown op, 4002 bad JSON, 4013 bad intents', async () => {
    const cases: [(c: RawGateway) => void, number][] = [
      [(c) => c.identify(GUILDS, 'wrong'), 4004],
      [(c) => c.send(8, { guild_id: hangout.id }), 4003],
      [(c) => c.send(99, null), 4001],
      [(c) => c.ws.send('{nope'), 4002],
      [(c) => c.identify(1 << 30), 4013],
    ];
    for (const [act, code] of cases) {
      const c = await open();
      act(c);
      expect(await c.closed()).toBe(code);
    }
  });

  it('sends 4014 for privileged intents the application has not enabled', async () => {
    await control('PATCH', '/config', { privilegedIntents: 0 });
    try {
      const c = await open();
      c.identify(GUILDS | GUILD_MEMBERS);
      expect(await c.closed()).toBe(4014);
    } finally {
      await control('PATCH', '/config', { privilegedIntents: GUILD_MEMBERS });
    }
  });

  it('sends GUILD_DELETE when the bot is removed from a guild', async () => {
    const c = await open();
    c.identify(GUILDS | GUILD_MEMBERS);
    await waitFor(() => c.dispatches('GUILD_CREATE').length === 2);
    await control('DELETE', `/guilds/${seedGuildIds.danceClub.id}/members/${discordApp.botUserId}`);
    const del = await c.next((f) => f.t === 'GUILD_DELETE');
    expect(del.d).toEqual({ id: seedGuildIds.danceClub.id });
    expect((await call(sim.url, 'GET', `/api/v10/guilds/${seedGuildIds.danceClub.id}`)).status).toBe(403);
  });
});
