import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import type { SimulatorOptions } from '../src/context.js';
import { discordApp } from '../src/demo.js';
import { shardOf } from '../src/discord/gateway-shards.js';
import { seedGuildIds } from '../src/discord/seed.js';
import { call, FAST_IDENTIFY, waitFor } from './discord-helpers.js';
import { RawGateway } from './discord-raw-gateway.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
type GatewayBot = {
  url: string;
  shards: number;
  session_start_limit: { total: number; remaining: number; reset_after: number; max_concurrency: number };
};

/** Gateway sharding as Discord does it: shards by guild id, 4010/4011, identify buckets, session starts. */
describe('the Discord gateway, sharded', () => {
  const sims: RunningSimulator[] = [];
  const clients: RawGateway[] = [];
  const start = async (discordGateway: SimulatorOptions['discordGateway']) => {
    const sim = await startSimulator({ port: 0, gatewayHeartbeatMs: 5000, discordGateway });
    sims.push(sim);
    return sim;
  };
  const gatewayBot = async (sim: RunningSimulator) =>
    (await call(sim.url, 'GET', '/api/v10/gateway/bot')).body as GatewayBot;
  // The gateway's address once per simulator: GET /gateway/bot has a rate limit of its own.
  const urls = new Map<RunningSimulator, string>();
  const open = async (sim: RunningSimulator) => {
    if (!urls.has(sim)) urls.set(sim, (await gatewayBot(sim)).url);
    const c = new RawGateway(urls.get(sim) as string);
    clients.push(c);
    await c.opened;
    return c;
  };
  const control = (sim: RunningSimulator, method: string, path: string, json?: unknown) =>
    call(sim.url, method, `/control/discord${path}`, { auth: null, json });
  /** Connects shard `[id, count]` and waits for its READY and every GUILD_CREATE it announces. */
  const connectShard = async (
    sim: RunningSimulator,
    shard: [number, number] | undefined,
    intents = GUILDS,
  ) => {
    const c = await open(sim);
    c.identify(intents, undefined, shard ? { shard } : {});
    const ready = await c.next((f) => f.t === 'READY');
    const listed = (ready.d.guilds as { id: string }[]).map((g) => g.id);
    await waitFor(() => c.dispatches('GUILD_CREATE').length === listed.length, 20_000);
    return { c, ready, listed };
  };

  afterEach(() => {
    for (const c of clients.splice(0)) c.ws.terminate();
  });
  afterAll(async () => {
    for (const sim of sims) await sim.close();
  });

  describe('with many servers', () => {
    let sim: RunningSimulator;
    let all: string[];
    beforeAll(async () => {
      sim = await start(FAST_IDENTIFY);
      // 2,500 more servers with the bot: 2,502 in all, past the 2,500 one session may hold.
      const res = await control(sim, 'POST', '/bulk-guilds', { count: 2500 });
      expect(res.status).toBe(201);
      all = [];
      for (const shard of [0, 1, 2] as const) {
        const { listed } = await connectShard(sim, [shard, 3]);
        all.push(...listed);
      }
      for (const c of clients.splice(0)) c.ws.terminate();
    }, 120_000);

    it('recommends one shard per 1,000 servers in GET /gateway/bot', async () => {
      const info = await gatewayBot(sim);
      expect(info.shards).toBe(3);
      expect(info.session_start_limit).toMatchObject({ total: 1000, max_concurrency: 1 });
      expect(info.session_start_limit.remaining).toBeLessThan(1000);
      expect(info.session_start_limit.reset_after).toBeGreaterThan(0);
    });

    it('closes an unsharded IDENTIFY past 2,500 servers with 4011, and one with too few shards', async () => {
      expect(all).toHaveLength(2502);
      const unsharded = await open(sim);
      unsharded.identify(GUILDS);
      expect(await unsharded.closed()).toBe(4011);
      const oneOfOne = await open(sim);
      oneOfOne.identify(GUILDS, undefined, { shard: [0, 1] });
      expect(await oneOfOne.closed()).toBe(4011);
      expect(unsharded.dispatches('READY')).toEqual([]);
    });

    it('gives each shard the servers with (id >> 22) % count === shard id, each server to exactly one', async () => {
      const zero = await connectShard(sim, [0, 2]);
      const one = await connectShard(sim, [1, 2]);
      expect(zero.ready.d.shard).toEqual([0, 2]);
      expect(one.ready.d.shard).toEqual([1, 2]);
      for (const id of zero.listed) expect(shardOf(id, 2)).toBe(0);
      for (const id of one.listed) expect(shardOf(id, 2)).toBe(1);
      expect(new Set([...zero.listed, ...one.listed]).size).toBe(2502);
      expect(zero.listed.length + one.listed.length).toBe(2502);
      // GUILD_CREATEs only for the shard's own servers.
      const created = zero.c.dispatches('GUILD_CREATE').map((f) => f.d.id as string);
      expect(new Set(created)).toEqual(new Set(zero.listed));
    }, 60_000);

    it("dispatches a server's events only to the session of its shard", async () => {
      const zero = await connectShard(sim, [0, 2]);
      const one = await connectShard(sim, [1, 2]);
      const target = one.listed[7];
      await control(sim, 'POST', `/guilds/${target}/roles`, { name: 'Only shard one' });
      await one.c.next((f) => f.t === 'GUILD_ROLE_CREATE' && f.d.guild_id === target);
      // A later event of shard 0 arrives after the first: nothing of the other shard came before it.
      const mine = zero.listed[3];
      await control(sim, 'POST', `/guilds/${mine}/roles`, { name: 'Only shard zero' });
      await zero.c.next((f) => f.t === 'GUILD_ROLE_CREATE' && f.d.guild_id === mine);
      expect(zero.c.dispatches('GUILD_ROLE_CREATE').map((f) => f.d.guild_id)).toEqual([mine]);
      expect(one.c.dispatches('GUILD_ROLE_CREATE').map((f) => f.d.guild_id)).toEqual([target]);
    }, 60_000);

    it('answers op 8 only for servers of the asking shard', async () => {
      const zero = await connectShard(sim, [0, 2], GUILDS | GUILD_MEMBERS);
      const one = await connectShard(sim, [1, 2], GUILDS | GUILD_MEMBERS);
      zero.c.send(8, { guild_id: one.listed[0], query: '', limit: 0, nonce: 'other' });
      zero.c.send(8, { guild_id: zero.listed[0], query: '', limit: 0, nonce: 'own' });
      await zero.c.chunks('own');
      expect(zero.c.dispatches('GUILD_MEMBERS_CHUNK').map((f) => f.d.nonce)).toEqual(['own']);
    }, 60_000);
  });

  describe('with the seeded servers', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await start(FAST_IDENTIFY);
    });
    beforeEach(async () => {
      await control(sim, 'POST', '/reset');
    });

    it('closes an invalid shard with 4010', async () => {
      for (const shard of [[2, 2], [-1, 2], [0, 0], [0], [0.5, 2], 'all', [1, 1]]) {
        const c = await open(sim);
        c.identify(GUILDS, undefined, { shard });
        expect(await c.closed(), JSON.stringify(shard)).toBe(4010);
      }
    });

    it('recommends one shard for a few servers and lets an unsharded session have them all', async () => {
      expect((await gatewayBot(sim)).shards).toBe(1);
      const { ready, listed } = await connectShard(sim, undefined);
      expect(ready.d.shard).toEqual([0, 1]);
      expect(listed).toEqual([seedGuildIds.hangout.id, seedGuildIds.danceClub.id]);
    });
  });

  it('lets one IDENTIFY per bucket (shard id % max_concurrency) through per window; one too early gets op 9', async () => {
    // 5 s: two full connects must fit inside the window on a busy machine too.
    const sim = await start({ maxConcurrency: 2, identifyWindowMs: 5000 });
    expect((await gatewayBot(sim)).session_start_limit.max_concurrency).toBe(2);
    // Shards 0 and 1 are in buckets 0 and 1: both start at once.
    const first = Date.now();
    await connectShard(sim, [0, 4]);
    await connectShard(sim, [1, 4]);
    // Shard 2 is in bucket 0 again, within the window: refused without a session.
    const early = await open(sim);
    early.identify(GUILDS, undefined, { shard: [2, 4] });
    const nine = await early.next((f) => f.op === 9);
    expect(nine.d).toBe(false);
    expect(early.dispatches('READY')).toEqual([]);
    const state = (await control(sim, 'GET', '/gateway')).body as { identifyRefusedTooSoon: number };
    expect(state.identifyRefusedTooSoon).toBe(1);
    // Once the window has passed it starts (the client retries on each op 9, as discord.js does).
    const later = await waitFor(async () => {
      const c = await open(sim);
      c.identify(GUILDS, undefined, { shard: [2, 4] });
      const f = await c.next((x) => x.op === 9 || x.t === 'READY');
      if (f.t === 'READY') return f;
      // discord.js waits 1–5 s after op 9 before it identifies again; half a second keeps the sockets few.
      await new Promise((r) => setTimeout(r, 500));
      return null;
    }, 20_000);
    expect(later.d.shard).toEqual([2, 4]);
    expect(Date.now() - first).toBeGreaterThanOrEqual(5000);
  });

  it('counts session starts (RESUMEs not) and, past the limit, ends every session with 4004', async () => {
    const sim = await start({ ...FAST_IDENTIFY, sessionStartLimitTotal: 2 });
    const a = await connectShard(sim, undefined);
    const sessionId = a.ready.d.session_id as string;
    a.c.ws.terminate();
    // A RESUME is no session start.
    const resumed = await open(sim);
    resumed.send(6, { token: discordApp.botToken, session_id: sessionId, seq: 1 });
    await resumed.next((f) => f.t === 'RESUMED');
    expect((await gatewayBot(sim)).session_start_limit.remaining).toBe(1);
    await connectShard(sim, undefined);
    expect((await gatewayBot(sim)).session_start_limit.remaining).toBe(0);
    const third = await open(sim);
    third.identify(GUILDS);
    expect(await third.closed()).toBe(4004);
    expect(await resumed.closed()).toBe(4004);
    expect(((await control(sim, 'GET', '/gateway')).body as { sessions: unknown[] }).sessions).toEqual([]);
  });

  it('closes a connection that sends more than 120 payloads in 60 s with 4008, heartbeats counted', async () => {
    const sim = await start(FAST_IDENTIFY);
    const { c } = await connectShard(sim, undefined);
    // IDENTIFY was the first; 119 more heartbeats are still within the limit.
    for (let i = 0; i < 119; i++) c.send(1, null);
    await waitFor(() => c.frames.filter((f) => f.op === 11).length >= 119);
    expect(c.closeCode).toBeNull();
    c.send(1, null);
    expect(await c.closed()).toBe(4008);
    expect(
      ((await control(sim, 'GET', '/gateway')).body as { sendLimitClosures: number }).sendLimitClosures,
    ).toBe(1);
  });
});
