import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { call, FAST_IDENTIFY, waitFor } from './discord-helpers.js';
import { RawGateway } from './discord-raw-gateway.js';

/** Many servers at once (control API), as a bot in 1,100 communities sees them. */

type BulkGuild = {
  id: string;
  name: string;
  ownerId: string;
  roleIds: Record<string, string>;
  channels: { general: string; botLog: string };
};
const GUILDS = 1 << 0;

describe('bulk-creating servers', () => {
  let sim: RunningSimulator;
  const bulk = async (json: unknown) => {
    const res = await call(sim.url, 'POST', '/control/discord/bulk-guilds', { auth: null, json });
    return {
      status: res.status,
      body: res.body as { created: number; guilds: BulkGuild[]; message?: string },
    };
  };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, gatewayHeartbeatMs: 5000, discordGateway: FAST_IDENTIFY });
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    await call(sim.url, 'POST', '/control/discord/reset', { auth: null });
  });

  it('creates 1,100 servers with the bot installed; the bot gets each in READY', async () => {
    const res = await bulk({ count: 1_100 });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(1_100);
    const ids = res.body.guilds.map((g) => g.id);
    expect(new Set(ids).size).toBe(1_100);
    expect(res.body.guilds[0].name).toBe('Bulk Server 0001');

    // One server through the bot's REST API: owner with Admin, the bot's managed role under the staff roles.
    const g = res.body.guilds[41];
    const guild = await call(sim.url, 'GET', `/api/v10/guilds/${g.id}`);
    expect(guild.status).toBe(200);
    expect(guild.body).toMatchObject({ id: g.id, name: 'Bulk Server 0042', owner_id: g.ownerId });
    const roles = (
      guild.body as { roles: { id: string; name: string; position: number; managed: boolean }[] }
    ).roles;
    const byName = Object.fromEntries(roles.map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(
      ['@everyone', 'Admin', 'Event Host', 'Guest', 'Member', 'Moderator', 'VRCLink', 'Verified'].sort(),
    );
    expect(byName.VRCLink).toMatchObject({ id: g.roleIds.bot, managed: true });
    expect(byName.VRCLink.position).toBeGreaterThan(byName.Verified.position);
    expect(byName.VRCLink.position).toBeLessThan(byName.Moderator.position);
    const me = await call(sim.url, 'GET', `/api/v10/guilds/${g.id}/members/${discordApp.botUserId}`);
    expect(me.body).toMatchObject({ roles: [g.roleIds.bot] });
    const owner = await call(sim.url, 'GET', `/api/v10/guilds/${g.id}/members/${g.ownerId}`);
    expect(owner.body).toMatchObject({ roles: [g.roleIds.admin] });

    // A bot connecting now is told of all 1,102 servers it is in.
    const url = ((await call(sim.url, 'GET', '/api/v10/gateway/bot')).body as { url: string }).url;
    const gateway = new RawGateway(url);
    try {
      await gateway.opened;
      gateway.identify(GUILDS);
      const ready = await gateway.next((f) => f.t === 'READY');
      expect((ready.d as { guilds: unknown[] }).guilds).toHaveLength(1_102);
      await waitFor(() => gateway.dispatches('GUILD_CREATE').length === 1_102, 60_000);
    } finally {
      gateway.ws.terminate();
    }
  }, 120_000);

  it('tells a connected bot of each new server; without the bot, nothing is sent', async () => {
    const url = ((await call(sim.url, 'GET', '/api/v10/gateway/bot')).body as { url: string }).url;
    const gateway = new RawGateway(url);
    try {
      await gateway.opened;
      gateway.identify(GUILDS);
      await waitFor(() => gateway.dispatches('GUILD_CREATE').length === 2);
      const without = await bulk({ count: 2, withBot: false });
      const withBot = await bulk({ count: 3 });
      const created = await waitFor(() => {
        const got = gateway.dispatches('GUILD_CREATE').slice(2);
        return got.length >= 3 ? got : null;
      });
      expect(created.map((f) => f.d.id)).toEqual(withBot.body.guilds.map((g) => g.id));
      expect(without.body.guilds[0].roleIds.bot).toBeUndefined();
      const absent = await call(sim.url, 'GET', `/api/v10/guilds/${without.body.guilds[0].id}`);
      expect(absent.status).toBe(403);
    } finally {
      gateway.ws.terminate();
    }
  });

  it('fills servers with members on request, numbers on, and starts again after a reset', async () => {
    const res = await bulk({ count: 2, membersPerGuild: 500 });
    for (const g of res.body.guilds) {
      const summary = await call(sim.url, 'GET', `/control/discord/guilds/${g.id}`, { auth: null });
      expect((summary.body as { members: unknown[] }).members).toHaveLength(502);
    }
    const next = await bulk({ count: 1 });
    expect(next.body.guilds[0].name).toBe('Bulk Server 0003');
    await call(sim.url, 'POST', '/control/discord/reset', { auth: null });
    const again = await bulk({ count: 1 });
    expect(again.body.guilds[0]).toEqual(res.body.guilds[0]);
    const tooMany = await bulk({ count: 5_000, membersPerGuild: 1_000 });
    expect(tooMany).toMatchObject({
      status: 400,
      body: { message: 'At most 2000000 members in all per call.' },
    });
  });
});
