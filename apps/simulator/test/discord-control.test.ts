import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { call } from './discord-helpers.js';

const hangout = seedGuildIds.hangout;

interface GuildSummary {
  id: string;
  name: string;
  botMember: boolean;
  roles: { id: string; name: string; position: number }[];
  members: { userId: string; roles: string[]; roleNames: string[]; nick: string | null }[];
}

let sim: RunningSimulator;
const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/discord${path}`, { auth: null, json });
const guild = async (id: string) => (await control('GET', `/guilds/${id}`)).body as GuildSummary;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

describe('the seeded world', () => {
  it('has 44 humans plus the bot, three guilds, the bot in two of them', async () => {
    const state = (await control('GET', '/state')).body as {
      users: { bot: boolean }[];
      guilds: GuildSummary[];
    };
    expect(state.users.filter((u) => !u.bot)).toHaveLength(44);
    expect(state.guilds.map((g) => [g.name, g.botMember, g.members.length])).toEqual([
      ['VRChat Hangout', true, 41],
      ['Furry Dance Club', true, 35],
      ['Quiet Corner', false, 30],
    ]);
    const hang = state.guilds[0];
    // A human role sits above the bot's managed role so hierarchy errors can be exercised.
    const pos = (name: string) => hang.roles.find((r) => r.name === name)!.position;
    expect(pos('Moderator')).toBeGreaterThan(pos('VRCLink'));
    expect(pos('VRCLink')).toBeGreaterThan(pos('Verified'));
    expect(hang.members.find((m) => m.userId === seedUserIds.admin)?.roleNames).toContain('Admin');
    expect(hang.members.some((m) => m.nick)).toBe(true);
  });
});

describe('membership and roles (as a moderator would, no hierarchy checks)', () => {
  it('adds a new user by username, changes roles above the bot, removes the member', async () => {
    const added = await control('POST', `/guilds/${hangout.id}/members`, {
      username: 'late_joiner',
      roles: [hangout.roles.Newcomer],
    });
    expect(added.status).toBe(201);
    const { userId } = added.body as { userId: string };
    expect((await call(sim.url, 'GET', `/api/v10/users/${userId}`)).body).toMatchObject({
      username: 'late_joiner',
    });
    expect(
      (await control('PUT', `/guilds/${hangout.id}/members/${userId}/roles/${hangout.roles.Moderator}`))
        .status,
    ).toBe(204);
    let me = (await guild(hangout.id)).members.find((m) => m.userId === userId)!;
    expect(me.roleNames).toEqual(['Newcomer', 'Moderator']);
    await control('DELETE', `/guilds/${hangout.id}/members/${userId}/roles/${hangout.roles.Newcomer}`);
    me = (await guild(hangout.id)).members.find((m) => m.userId === userId)!;
    expect(me.roleNames).toEqual(['Moderator']);
    expect((await control('POST', `/guilds/${hangout.id}/members`, { userId })).status).toBe(409);
    expect((await control('DELETE', `/guilds/${hangout.id}/members/${userId}`)).status).toBe(204);
    expect((await guild(hangout.id)).members.some((m) => m.userId === userId)).toBe(false);
  });

  it('creates, moves, renames and deletes roles; deleting drops it from members', async () => {
    const created = await control('POST', `/guilds/${hangout.id}/roles`, {
      name: 'VRChat Trusted',
      color: 0x8143e6,
      position: 2,
    });
    expect(created.status).toBe(201);
    const role = created.body as { id: string; position: number };
    expect(role.position).toBe(2);
    await control('PUT', `/guilds/${hangout.id}/members/${seedUserIds.admin}/roles/${role.id}`);
    await control('PATCH', `/guilds/${hangout.id}/roles/${role.id}`, { name: 'Trusted', position: 6 });
    const roles = (await guild(hangout.id)).roles;
    expect(roles.find((r) => r.id === role.id)).toMatchObject({ name: 'Trusted', position: 6 });
    expect(new Set(roles.map((r) => r.position)).size).toBe(roles.length);
    await control('DELETE', `/guilds/${hangout.id}/roles/${role.id}`);
    const after = await guild(hangout.id);
    expect(after.roles.some((r) => r.id === role.id)).toBe(false);
    expect(after.members.find((m) => m.userId === seedUserIds.admin)!.roles).not.toContain(role.id);
  });

  it('answers unknown guilds, users and bad bodies with plain errors', async () => {
    expect((await control('POST', '/guilds/1/members', { userId: seedUserIds.admin })).status).toBe(404);
    expect(
      (await control('POST', `/guilds/${hangout.id}/members`, { userId: '1299999999999999999' })).status,
    ).toBe(404);
    expect((await control('POST', `/guilds/${hangout.id}/roles`, { color: 'red' })).status).toBe(400);
  });
});

describe('interactions', () => {
  const app = discordApp.clientId;
  beforeAll(async () => {
    await call(sim.url, 'PUT', `/api/v10/applications/${app}/commands`, {
      json: [
        {
          name: 'link',
          description: 'Link',
          options: [
            { type: 3, name: 'vrchat', description: 'VRChat name', required: true },
            { type: 6, name: 'member', description: 'Member' },
          ],
        },
      ],
    });
  });
  const start = (json: unknown) => control('POST', '/interactions', json);

  it('refuses commands that are not registered, missing required options and non-members', async () => {
    expect(
      (await start({ guildId: hangout.id, userId: seedUserIds.admin, commandName: 'nope' })).status,
    ).toBe(404);
    expect(
      (await start({ guildId: hangout.id, userId: seedUserIds.admin, commandName: 'link' })).status,
    ).toBe(400);
    const outsider = seedUserIds.unaffiliated[2];
    expect(
      (await start({ guildId: hangout.id, userId: outsider, commandName: 'link', options: { vrchat: 'x' } }))
        .status,
    ).toBe(404);
    expect(
      (
        await start({
          guildId: seedGuildIds.quietCorner.id,
          userId: seedUserIds.admin,
          commandName: 'link',
          options: { vrchat: 'x' },
        })
      ).status,
    ).toBe(409);
  });

  it('fills option types from the command, resolves users, and enforces acknowledgement rules', async () => {
    const res = await start({
      guildId: hangout.id,
      userId: seedUserIds.admin,
      commandName: 'link',
      options: { vrchat: 'Echo', member: seedUserIds.humans[4] },
    });
    expect(res.status).toBe(201);
    const { interactionId, token } = res.body as { interactionId: string; token: string };
    const view = (await control('GET', `/interactions/${interactionId}`)).body as {
      options: unknown;
      acknowledged: boolean;
    };
    expect(view).toMatchObject({
      acknowledged: false,
      options: [
        { name: 'vrchat', type: 3, value: 'Echo' },
        { name: 'member', type: 6, value: seedUserIds.humans[4] },
      ],
    });
    const cb = `/api/v10/interactions/${interactionId}/${token}/callback`;
    expect(
      (await call(sim.url, 'POST', cb, { auth: null, json: { type: 4, data: { content: 'ok' } } })).status,
    ).toBe(204);
    const twice = await call(sim.url, 'POST', cb, {
      auth: null,
      json: { type: 4, data: { content: 'again' } },
    });
    expect(twice).toMatchObject({ status: 400, body: { code: 40060 } });
    const wrongToken = await call(sim.url, 'POST', `/api/v10/interactions/${interactionId}/nope/callback`, {
      auth: null,
      json: { type: 5 },
    });
    expect(wrongToken).toMatchObject({ status: 404, body: { code: 10062 } });
  });

  it('a callback after the acknowledgement window is an unknown interaction', async () => {
    await control('PATCH', '/config', { interactionAckWindowMs: 30 });
    try {
      const { interactionId, token } = (
        await start({
          guildId: hangout.id,
          userId: seedUserIds.admin,
          commandName: 'link',
          options: { vrchat: 'x' },
        })
      ).body as { interactionId: string; token: string };
      await new Promise((r) => setTimeout(r, 80));
      const late = await call(sim.url, 'POST', `/api/v10/interactions/${interactionId}/${token}/callback`, {
        auth: null,
        json: { type: 5 },
      });
      expect(late).toMatchObject({ status: 404, body: { code: 10062, message: 'Unknown interaction' } });
    } finally {
      await control('PATCH', '/config', { interactionAckWindowMs: 3000 });
    }
  });
});

describe('pages', () => {
  it('the server page lists the guild, its members and their role names', async () => {
    const res = await fetch(`${sim.url}/channels/${hangout.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1 id="guild-name">VRChat Hangout</h1>');
    expect(html).toContain('@demo_admin');
    expect(html).toMatch(/>Admin<\/span>/);
    expect(html).toContain('BOT');
    expect((await fetch(`${sim.url}/channels/1300000000000000099`)).status).toBe(404);
  });

  it('a channel page shows what the bot posted', async () => {
    await call(sim.url, 'POST', `/api/v10/channels/${hangout.channels.general}/messages`, {
      json: { content: 'Welcome <b>all</b>' },
    });
    const html = await (await fetch(`${sim.url}/channels/${hangout.id}/${hangout.channels.general}`)).text();
    expect(html).toContain('Welcome &lt;b&gt;all&lt;/b&gt;');
    const transcript = (await control('GET', `/channels/${hangout.channels.general}/messages`)).body as {
      content: string;
    }[];
    expect(transcript.at(-1)?.content).toBe('Welcome <b>all</b>');
  });
});

describe('reset', () => {
  it('restores the seeded world', async () => {
    await control('DELETE', `/guilds/${hangout.id}/members/${seedUserIds.humans[7]}`);
    expect((await control('POST', '/reset')).status).toBe(204);
    const g = await guild(hangout.id);
    expect(g.members).toHaveLength(41);
    expect((await control('GET', `/channels/${hangout.channels.general}/messages`)).body).toEqual([]);
  });
});
