import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type GuildMember } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { call, FAST_IDENTIFY, postAuthorize, readyBot, waitFor } from './discord-helpers.js';

const hangout = seedGuildIds.hangout;

describe('an unmodified discord.js Client against the simulator', () => {
  let sim: RunningSimulator;
  let client: Client;
  const control = (method: string, path: string, json?: unknown) =>
    call(sim.url, method, `/control/discord${path}`, { auth: null, json });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, gatewayHeartbeatMs: 400, discordGateway: FAST_IDENTIFY });
    client = await readyBot(sim.url);
  });

  afterAll(async () => {
    await client?.destroy();
    await sim?.close();
  });

  it('becomes ready with the bot’s two guilds; only the bot’s own member is cached (no presences intent)', async () => {
    expect(client.user?.id).toBe(discordApp.botUserId);
    expect(client.application?.id).toBe(discordApp.clientId);
    expect([...client.guilds.cache.keys()].sort()).toEqual([hangout.id, seedGuildIds.danceClub.id]);
    const guild = client.guilds.cache.get(hangout.id)!;
    expect(guild.name).toBe('VRChat Hangout');
    expect(guild.memberCount).toBe(41);
    expect([...guild.members.cache.keys()]).toEqual([discordApp.botUserId]);
    expect(guild.members.me?.roles.highest.id).toBe(hangout.roles.VRCLink);
    expect(
      guild.roles.cache.get(hangout.roles.Moderator)?.comparePositionTo(hangout.roles.VRCLink),
    ).toBeGreaterThan(0);
    expect(guild.channels.cache.map((c) => c.name).sort()).toEqual(['bot-log', 'general']);
  });

  it('heartbeats are acknowledged (the client measures a ping)', async () => {
    await waitFor(() => client.ws.ping >= 0, 3000);
  });

  it('receives GuildMemberAdd when the control API adds a member', async () => {
    const added = once(client, Events.GuildMemberAdd) as Promise<[GuildMember]>;
    const userId = seedUserIds.unaffiliated[0];
    expect((await control('POST', `/guilds/${hangout.id}/members`, { userId })).status).toBe(201);
    const [member] = await added;
    expect(member.id).toBe(userId);
    expect(member.guild.id).toBe(hangout.id);
    expect(client.guilds.cache.get(hangout.id)!.members.cache.has(userId)).toBe(true);
  });

  it('receives GuildMemberUpdate when a moderator changes roles, and when the bot does', async () => {
    const userId = seedUserIds.humans[1];
    // discord.js emits GuildMemberUpdate only for cached members; GUILD_CREATE no longer brings them.
    await client.guilds.cache.get(hangout.id)!.members.fetch(userId);
    const first = once(client, Events.GuildMemberUpdate) as Promise<[GuildMember, GuildMember]>;
    await control('PUT', `/guilds/${hangout.id}/members/${userId}/roles/${hangout.roles['Event Host']}`);
    const [, after] = await first;
    expect(after.roles.cache.has(hangout.roles['Event Host'])).toBe(true);

    const member = client.guilds.cache.get(hangout.id)!.members.cache.get(userId)!;
    const second = once(client, Events.GuildMemberUpdate) as Promise<[GuildMember, GuildMember]>;
    await member.roles.add(hangout.roles.Verified);
    const [, updated] = await second;
    expect(updated.roles.cache.has(hangout.roles.Verified)).toBe(true);
    const fetched = (await control('GET', `/guilds/${hangout.id}`)).body as {
      members: { userId: string; roles: string[] }[];
    };
    expect(fetched.members.find((m) => m.userId === userId)?.roles).toContain(hangout.roles.Verified);
  });

  it('fetches all members over the gateway (op 8) and one member over REST', async () => {
    const guild = client.guilds.cache.get(hangout.id)!;
    const all = await guild.members.fetch();
    expect(all.size).toBe(guild.memberCount);
    const one = await guild.members.fetch({ user: seedUserIds.humans[2], force: true });
    expect(one.user.username).toBe('bluefox');
  });

  it('answers a slash command: reply, and defer + editReply', async () => {
    await client.application!.commands.set(
      [
        { name: 'ping', description: 'Ping' },
        { name: 'slow', description: 'Slow' },
        {
          name: 'whois',
          description: 'Who is',
          options: [{ type: 6, name: 'member', description: 'Member', required: true }],
        },
      ],
      hangout.id,
    );
    client.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      if (interaction.commandName === 'ping') await interaction.reply('pong');
      if (interaction.commandName === 'whois') {
        const user = interaction.options.getUser('member', true);
        const member = interaction.options.getMember('member') as GuildMember | null;
        await interaction.reply(`${user.username} aka ${member?.displayName}`);
      }
      if (interaction.commandName === 'slow') {
        await interaction.deferReply({ flags: 64 });
        await interaction.editReply(`done for ${interaction.user.username}`);
      }
    });
    const run = async (commandName: string) => {
      const res = await control('POST', '/interactions', {
        guildId: hangout.id,
        userId: seedUserIds.admin,
        commandName,
      });
      expect(res.status).toBe(201);
      const { interactionId } = res.body as { interactionId: string };
      return waitFor(async () => {
        const view = (await control('GET', `/interactions/${interactionId}`)).body as {
          original: { content: string; flags: number } | null;
          callback: { type: number } | null;
        };
        return view.original?.content ? view : null;
      });
    };
    const ping = await run('ping');
    expect(ping).toMatchObject({ callback: { type: 4 }, original: { content: 'pong' } });
    const slow = await run('slow');
    expect(slow).toMatchObject({
      callback: { type: 5 },
      ephemeral: true,
      original: { content: 'done for demo_admin' },
    });
    const transcript = (await control('GET', `/channels/${hangout.channels.general}/messages`)).body as {
      content: string;
    }[];
    expect(transcript.map((m) => m.content)).toEqual(['pong']);
  });

  it('resumes when the gateway asks it to reconnect (op 7) and keeps receiving events', async () => {
    const resumed = once(client, Events.ShardResume);
    expect((await control('POST', '/gateway/reconnect')).body).toEqual({ sessions: 1 });
    await resumed;
    const added = once(client, Events.GuildMemberAdd) as Promise<[GuildMember]>;
    await control('POST', `/guilds/${hangout.id}/members`, { userId: seedUserIds.unaffiliated[1] });
    expect((await added)[0].id).toBe(seedUserIds.unaffiliated[1]);
  });

  it('identifies afresh after a simulator reset (its session is gone)', async () => {
    const ready = once(client, Events.ShardReady);
    await control('POST', '/reset');
    await ready;
    expect(client.guilds.cache.get(hangout.id)?.memberCount).toBe(41);
  });

  it('gets GuildCreate when the bot is installed into the third guild via OAuth', async () => {
    const created = once(client, Events.GuildCreate);
    const res = await postAuthorize(sim.url, {
      scope: 'bot applications.commands',
      permissions: String(1n << 28n),
      user_id: seedUserIds.admin,
      guild_id: seedGuildIds.quietCorner.id,
    });
    expect(res.status).toBe(200);
    const [guild] = (await created) as [{ id: string; members: { me: GuildMember | null } }];
    expect(guild.id).toBe(seedGuildIds.quietCorner.id);
    expect(guild.members.me?.roles.highest.position).toBe(1);
  });
});

describe('discord.js login failures', () => {
  it('rejects a wrong token with TokenInvalid', async () => {
    const sim = await startSimulator({ port: 0 });
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${sim.url}/api` } });
    try {
      await expect(client.login('not-the-token')).rejects.toThrow(/invalid token/i);
    } finally {
      await client.destroy();
      await sim.close();
    }
  });
});
