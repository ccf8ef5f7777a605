import { demo, seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { type APIMessage, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAX_SIMULATOR, type SimHarness, startSimHarness, waitFor } from '../testing.js';
import { createDiscordBot, type DiscordBot } from './bot.js';
import { DiscordPermissionError } from './errors.js';
import { DiscordGrantError, DiscordOAuth } from './oauth.js';

const { discordApp } = demo;

const { hangout, danceClub, quietCorner } = seedGuildIds;
const REDIRECT_URI = 'http://127.0.0.1:5999/auth/discord/callback';

describe('Discord bot adapter against the simulator', () => {
  let sim: SimHarness;
  /** Connected to the gateway: reads come from its cache. */
  let bot: DiscordBot;
  /** Never started: every read goes over REST. */
  let restOnly: DiscordBot;

  beforeAll(async () => {
    // Lax: many Discord sign-ins, reads or role changes from one address; not a test of the limits.
    sim = await startSimHarness({ ...LAX_SIMULATOR, redirectUris: [REDIRECT_URI] });
    bot = createDiscordBot({ config: sim.config.discord, log: sim.log });
    restOnly = createDiscordBot({ config: sim.config.discord, log: sim.log });
    await bot.start();
  });
  afterAll(async () => {
    await bot?.stop();
    await restOnly?.stop();
    await sim?.close();
  });

  it('starts on the gateway and sees the two seeded guilds the bot is in', async () => {
    expect(bot.client.isReady()).toBe(true);
    expect((await bot.botGuildIds()).sort()).toEqual([hangout.id, danceClub.id].sort());
    expect((await restOnly.botGuildIds()).sort()).toEqual([hangout.id, danceClub.id].sort());
  });

  it('start() rejects (and leaves nothing running) when Discord refuses the token', async () => {
    const wrong = createDiscordBot({
      config: { ...sim.config.discord, botToken: 'wrong-token' },
      log: sim.log,
    });
    await expect(wrong.start()).rejects.toThrow();
    expect(wrong.client.isReady()).toBe(false);
    await wrong.stop();
  });

  it('keeps REST working after stop(), and connects again (a holder that lost its gateway lock)', async () => {
    const again = createDiscordBot({ config: sim.config.discord, log: sim.log });
    await again.start();
    await again.stop();
    expect((await again.getGuild(hangout.id))?.name).toBe('VRChat Hangout');
    await again.start();
    expect(again.client.isReady()).toBe(true);
    await again.stop();
  });

  it('getGuild answers name, icon and roles highest first; null where the bot is not', async () => {
    for (const discord of [bot, restOnly]) {
      const guild = await discord.getGuild(hangout.id);
      expect(guild).toMatchObject({ id: hangout.id, name: 'VRChat Hangout' });
      const names = guild?.roles.map((r) => r.name);
      expect(names?.indexOf('Moderator')).toBeLessThan(names?.indexOf('VRCLink') ?? -1);
      expect(guild?.roles.find((r) => r.id === hangout.roles.Verified)?.position).toEqual(expect.any(Number));
      expect(await discord.getGuild(quietCorner.id)).toBeNull();
    }
  });

  it('getMember answers a member from the cache or REST alike, and null for a non-member', async () => {
    const userId = seedUserIds.humans[2];
    const cached = await bot.getMember(hangout.id, userId);
    expect(cached).toMatchObject({ userId, roles: expect.arrayContaining([hangout.roles.Moderator]) });
    expect(cached?.roles).not.toContain(hangout.id);
    expect(await restOnly.getMember(hangout.id, userId)).toEqual(cached);
    for (const discord of [bot, restOnly]) {
      expect(await discord.getMember(hangout.id, seedUserIds.unaffiliated[1])).toBeNull();
      expect(await discord.getMember(quietCorner.id, userId)).toBeNull();
    }
  });

  it('searchMembers and listMembers give the same answers from the cache and over REST', async () => {
    const someone = await bot.getMember(hangout.id, seedUserIds.humans[4]);
    const prefix = someone?.username.slice(0, 2) ?? '';
    const cached = await bot.searchMembers(hangout.id, prefix, 10);
    expect(cached.map((m) => m.userId)).toContain(someone?.userId);
    expect(await restOnly.searchMembers(hangout.id, prefix, 10)).toEqual(cached);
    expect(await bot.searchMembers(hangout.id, '   ', 10)).toEqual([]);

    const all = await bot.listMembers(hangout.id);
    expect(all).toHaveLength(41);
    const overRest = await restOnly.listMembers(hangout.id);
    expect(overRest.map((m) => m.userId).sort()).toEqual(all.map((m) => m.userId).sort());
  });

  it('adds and removes a role (the cache follows through the gateway)', async () => {
    const userId = seedUserIds.humans[3];
    const eventHost = hangout.roles['Event Host'];
    expect((await bot.getMember(hangout.id, userId))?.roles).not.toContain(eventHost);
    await bot.addRole(hangout.id, userId, eventHost, 'test: linked');
    expect((await restOnly.getMember(hangout.id, userId))?.roles).toContain(eventHost);
    await waitFor(async () => (await bot.getMember(hangout.id, userId))?.roles.includes(eventHost));
    await bot.removeRole(hangout.id, userId, eventHost, 'test: unlinked');
    expect((await restOnly.getMember(hangout.id, userId))?.roles).not.toContain(eventHost);
    await waitFor(async () => !(await bot.getMember(hangout.id, userId))?.roles.includes(eventHost));
  });

  it("botMember answers the bot's own roles (cache or REST); roles say whether an integration manages them", async () => {
    for (const discord of [bot, restOnly]) {
      expect((await discord.botMember(hangout.id))?.roles).toEqual([hangout.roles.VRCLink]);
      expect(await discord.botMember(quietCorner.id)).toBeNull();
      const roles = (await discord.getGuild(hangout.id))?.roles ?? [];
      expect(roles.find((r) => r.id === hangout.roles.VRCLink)?.managed).toBe(true);
      expect(roles.find((r) => r.id === hangout.roles.Verified)?.managed).toBe(false);
    }
  });

  it('explains a role above the bot with DiscordPermissionError', async () => {
    for (const discord of [bot, restOnly]) {
      const attempt = discord.addRole(hangout.id, seedUserIds.humans[10], hangout.roles.Moderator);
      await expect(attempt).rejects.toBeInstanceOf(DiscordPermissionError);
      await expect(attempt).rejects.toThrow("The bot's role must be above Moderator to manage it.");
    }
  });

  it('sends a message that pings nobody', async () => {
    const id = await bot.sendMessage(hangout.channels.botLog, `Linked <@${seedUserIds.humans[1]}> @everyone`);
    const messages = (await bot.rest.get(Routes.channelMessages(hangout.channels.botLog))) as APIMessage[];
    const sent = messages.find((m) => m.id === id);
    expect(sent?.content).toContain('Linked');
    expect(sent?.mentions ?? []).toEqual([]);
    expect(sent?.mention_everyone ?? false).toBe(false);
  });

  it("lists a user's guilds with a Bearer token from the OAuth flow, and refuses a bad token", async () => {
    const oauth = new DiscordOAuth(sim.config.discord);
    const authorize = await fetch(`${sim.url}/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: discordApp.clientId,
        response_type: 'code',
        scope: 'identify guilds',
        redirect_uri: REDIRECT_URI,
        state: 's',
        user_id: seedUserIds.admin,
        decision: 'authorize',
      }),
    });
    const code = new URL(authorize.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokens = await oauth.exchangeCode(code, REDIRECT_URI);

    const guilds = await bot.userGuilds(tokens.accessToken);
    expect(guilds.map((g) => g.id).sort()).toEqual([hangout.id, danceClub.id, quietCorner.id].sort());
    expect(guilds.find((g) => g.id === hangout.id)).toMatchObject({
      name: 'VRChat Hangout',
      owner: true,
      permissions: expect.stringMatching(/^\d+$/),
    });
    await expect(bot.userGuilds('not-a-token')).rejects.toBeInstanceOf(DiscordGrantError);
  });
});
