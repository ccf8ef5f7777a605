import { type Client, GatewayRateLimitError } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { seedGuildIds } from '../src/discord/seed.js';
import { call, FAST_IDENTIFY, readyBot } from './discord-helpers.js';

const dance = seedGuildIds.danceClub;

/** The product's client setup (Guilds + GuildMembers) against a bulk-seeded guild. */
describe('discord.js members against a 2,500-member guild', () => {
  let sim: RunningSimulator;
  let client: Client;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, gatewayHeartbeatMs: 1000, discordGateway: FAST_IDENTIFY });
    await call(sim.url, 'POST', `/control/discord/guilds/${dance.id}/bulk-members`, {
      auth: null,
      json: { count: 2465 },
    });
    client = await readyBot(sim.url);
  });

  afterAll(async () => {
    await client?.destroy();
    await sim?.close();
  });

  it('starts with only itself cached and the full member count', () => {
    const guild = client.guilds.cache.get(dance.id)!;
    expect(guild.memberCount).toBe(2500);
    expect(guild.large).toBe(true);
    expect(guild.members.cache.size).toBe(1);
  });

  it('guild.members.fetch() completes over op 8 with every member', async () => {
    const guild = client.guilds.cache.get(dance.id)!;
    const all = await guild.members.fetch();
    expect(all.size).toBe(2500);
    expect(guild.members.cache.size).toBe(2500);
  });

  it('a second full fetch within 30 s is refused with a GatewayRateLimitError', async () => {
    const guild = client.guilds.cache.get(dance.id)!;
    const error = await guild.members.fetch().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayRateLimitError);
    expect((error as GatewayRateLimitError).data).toMatchObject({ opcode: 8, meta: { guild_id: dance.id } });
  });

  it('queries by prefix (at most 100) and pages the REST list with after=', async () => {
    const guild = client.guilds.cache.get(dance.id)!;
    const found = await guild.members.fetch({ query: 'a', limit: 1000 });
    expect(found.size).toBe(100);
    const page = await guild.members.list({ limit: 1000 });
    const next = await guild.members.list({ limit: 1000, after: page.lastKey() });
    expect(page.size + next.size).toBe(2000);
    expect([...next.keys()].some((id) => page.has(id))).toBe(false);
  });
});
