import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { expectMatchesDiscordSpec, specHasOperation, toSpecTemplate } from './contract/discord-spec.js';
import { call, userToken } from './discord-helpers.js';

const app = discordApp.clientId;
const hangout = seedGuildIds.hangout;
const admin = seedUserIds.admin;
const member = seedUserIds.humans[5];

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

/** Calls the simulator and checks the response against the spec operation `template`. */
async function contract(
  method: string,
  template: string,
  path: string,
  opts: Parameters<typeof call>[3] & { status?: number } = {},
) {
  const res = await call(sim.url, method, `/api/v10${path}`, opts);
  expect(res.status, JSON.stringify(res.body)).toBe(
    opts.status ?? (method === 'DELETE' || method === 'PUT' ? 204 : 200),
  );
  expectMatchesDiscordSpec(method, template, res.status, res.body);
  return res.body as never;
}

describe('the contract helper', () => {
  it('refuses an operation the spec does not define', () => {
    expect(() => expectMatchesDiscordSpec('GET', '/guilds/{guild_id}/vrchat-links', 200, [])).toThrow(
      /not an operation/,
    );
    expect(() => expectMatchesDiscordSpec('POST', '/users/@me', 200, {})).toThrow(/not an operation/);
  });

  it('refuses a body that does not match', () => {
    expect(() => expectMatchesDiscordSpec('GET', '/users/{user_id}', 200, { id: 'not-a-snowflake' })).toThrow(
      /does not match/,
    );
  });

  it('every /api route the simulator serves is a spec operation (OAuth2 token/authorize excepted: docs-only)', async () => {
    const routes = (await call(sim.url, 'GET', '/control/discord/routes', { auth: null })).body as {
      method: string;
      url: string;
    }[];
    expect(routes.length).toBeGreaterThan(30);
    // The token/revoke/authorize endpoints are documented in prose only (OAuth2 topic), not in the spec.
    const docsOnly = /\/oauth2\/(token(\/revoke)?|authorize)$/;
    const invented = routes
      .filter((r) => !docsOnly.test(r.url))
      .filter((r) => !specHasOperation(r.method, toSpecTemplate(r.url)));
    expect(invented).toEqual([]);
  });
});

describe('users', () => {
  it('GET /users/@me as the bot and as a Bearer user', async () => {
    const bot = await contract('GET', '/users/@me', '/users/@me');
    expect(bot).toMatchObject({ id: discordApp.botUserId, bot: true });
    const token = await userToken(sim.url, admin, 'identify email');
    const me = await contract('GET', '/users/@me', '/users/@me', { auth: `Bearer ${token.access_token}` });
    expect(me).toMatchObject({ id: admin, username: 'demo_admin', verified: true });
  });

  it('GET /users/@me/guilds for the bot and a user (with counts and paging)', async () => {
    const botGuilds = await contract('GET', '/users/@me/guilds', '/users/@me/guilds');
    expect((botGuilds as { id: string }[]).map((g) => g.id)).toEqual([hangout.id, seedGuildIds.danceClub.id]);
    const token = await userToken(sim.url, admin, 'identify guilds');
    const auth = `Bearer ${token.access_token}`;
    const mine = await contract('GET', '/users/@me/guilds', '/users/@me/guilds?with_counts=true', { auth });
    expect(mine).toHaveLength(3);
    expect((mine as { owner: boolean; permissions: string }[])[0]).toMatchObject({
      owner: true,
      permissions: '8866461766385663',
    });
    const page = await contract('GET', '/users/@me/guilds', `/users/@me/guilds?after=${hangout.id}&limit=1`, {
      auth,
    });
    expect((page as { id: string }[]).map((g) => g.id)).toEqual([seedGuildIds.danceClub.id]);
  });

  it('GET /users/@me/guilds/{guild_id}/member with guilds.members.read', async () => {
    const token = await userToken(sim.url, member, 'identify guilds.members.read');
    const m = await contract(
      'GET',
      '/users/@me/guilds/{guild_id}/member',
      `/users/@me/guilds/${hangout.id}/member`,
      {
        auth: `Bearer ${token.access_token}`,
      },
    );
    expect(m).toMatchObject({ user: { id: member } });
  });

  it('GET /users/{user_id}', async () => {
    const u = await contract('GET', '/users/{user_id}', `/users/${member}`);
    expect(u).toMatchObject({ id: member });
  });
});

describe('guilds, roles, members, channels', () => {
  it('GET /guilds/{guild_id} with counts, roles and a single role', async () => {
    const g = await contract('GET', '/guilds/{guild_id}', `/guilds/${hangout.id}?with_counts=true`);
    expect(g).toMatchObject({
      id: hangout.id,
      name: 'VRChat Hangout',
      owner_id: admin,
      approximate_member_count: 41,
    });
    const roles = await contract('GET', '/guilds/{guild_id}/roles', `/guilds/${hangout.id}/roles`);
    expect((roles as { id: string }[])[0].id).toBe(hangout.id);
    await contract(
      'GET',
      '/guilds/{guild_id}/roles/{role_id}',
      `/guilds/${hangout.id}/roles/${hangout.roles.Verified}`,
    );
  });

  it('POST, PATCH and DELETE a role below the bot', async () => {
    const role = (await contract('POST', '/guilds/{guild_id}/roles', `/guilds/${hangout.id}/roles`, {
      json: { name: 'Linked', color: 0x00ff00 },
    })) as { id: string; position: number };
    expect(role.position).toBe(1);
    await contract('PATCH', '/guilds/{guild_id}/roles/{role_id}', `/guilds/${hangout.id}/roles/${role.id}`, {
      json: { name: 'VRChat Linked' },
    });
    await contract('DELETE', '/guilds/{guild_id}/roles/{role_id}', `/guilds/${hangout.id}/roles/${role.id}`);
  });

  it('lists, searches and gets members', async () => {
    const list = await contract(
      'GET',
      '/guilds/{guild_id}/members',
      `/guilds/${hangout.id}/members?limit=1000`,
    );
    expect(list).toHaveLength(41);
    const defaultPage = await contract('GET', '/guilds/{guild_id}/members', `/guilds/${hangout.id}/members`);
    expect(defaultPage).toHaveLength(1);
    const found = await contract(
      'GET',
      '/guilds/{guild_id}/members/search',
      `/guilds/${hangout.id}/members/search?query=BLUE&limit=5`,
    );
    expect((found as { user: { username: string } }[]).map((m) => m.user.username)).toEqual(['bluefox']);
    await contract('GET', '/guilds/{guild_id}/members/{user_id}', `/guilds/${hangout.id}/members/${member}`);
  });

  it('PATCH a member, add/remove a role, kick', async () => {
    await contract(
      'PATCH',
      '/guilds/{guild_id}/members/{user_id}',
      `/guilds/${hangout.id}/members/${member}`,
      {
        json: { nick: 'Linked Echo' },
      },
    );
    const path = `/guilds/${hangout.id}/members/${member}/roles/${hangout.roles['Event Host']}`;
    await contract('PUT', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', path);
    await contract('DELETE', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', path);
    // Kicking needs Kick Members, which the seeded bot role lacks: a moderator grants it first.
    await call(sim.url, 'PATCH', `/control/discord/guilds/${hangout.id}/roles/${hangout.roles.VRCLink}`, {
      auth: null,
      json: { permissions: String((1n << 28n) | (1n << 1n)) },
    });
    await contract(
      'DELETE',
      '/guilds/{guild_id}/members/{user_id}',
      `/guilds/${hangout.id}/members/${seedUserIds.humans[39]}`,
    );
  });

  it('channels and messages', async () => {
    await contract('GET', '/guilds/{guild_id}/channels', `/guilds/${hangout.id}/channels`);
    await contract('GET', '/channels/{channel_id}', `/channels/${hangout.channels.botLog}`);
    await contract(
      'POST',
      '/channels/{channel_id}/messages',
      `/channels/${hangout.channels.botLog}/messages`,
      {
        json: { content: 'hello', embeds: [{ title: 'Linked', description: 'x' }] },
      },
    );
    const list = await contract(
      'GET',
      '/channels/{channel_id}/messages',
      `/channels/${hangout.channels.botLog}/messages?limit=5`,
    );
    expect(list).toHaveLength(1);
  });
});

describe('application commands', () => {
  for (const [label, base, template] of [
    ['global', `/applications/${app}`, '/applications/{application_id}'],
    [
      'guild',
      `/applications/${app}/guilds/${hangout.id}`,
      '/applications/{application_id}/guilds/{guild_id}',
    ],
  ] as const) {
    it(`${label}: PUT, GET, POST, PATCH, DELETE`, async () => {
      const put = (await contract('PUT', `${template}/commands`, `${base}/commands`, {
        status: 200,
        json: [
          {
            name: 'link',
            description: 'Link your VRChat account',
            options: [{ type: 3, name: 'vrchat', description: 'VRChat user', required: true }],
          },
          { name: 'Show VRChat profile', type: 2 },
        ],
      })) as { id: string }[];
      expect(put).toHaveLength(2);
      await contract('GET', `${template}/commands`, `${base}/commands`);
      const created = (await contract('POST', `${template}/commands`, `${base}/commands`, {
        status: 201,
        json: { name: 'unlink', description: 'Unlink' },
      })) as { id: string };
      await contract('GET', `${template}/commands/{command_id}`, `${base}/commands/${created.id}`);
      await contract('PATCH', `${template}/commands/{command_id}`, `${base}/commands/${created.id}`, {
        json: { description: 'Unlink your VRChat account' },
      });
      await contract('DELETE', `${template}/commands/{command_id}`, `${base}/commands/${created.id}`);
    });
  }
});

describe('role connections', () => {
  it('metadata and the user connection', async () => {
    const path = `/applications/${app}/role-connections/metadata`;
    await contract('PUT', '/applications/{application_id}/role-connections/metadata', path, {
      status: 200,
      json: [
        { type: 7, key: 'verified', name: 'Verified', description: 'Has a linked VRChat account' },
        { type: 2, key: 'trust', name: 'Trust rank', description: 'VRChat trust rank' },
      ],
    });
    await contract('GET', '/applications/{application_id}/role-connections/metadata', path);
    const token = await userToken(sim.url, member, 'identify role_connections.write');
    const auth = `Bearer ${token.access_token}`;
    const conn = `/users/@me/applications/${app}/role-connection`;
    const template = '/users/@me/applications/{application_id}/role-connection';
    expect(await contract('GET', template, conn, { auth })).toEqual({
      platform_name: null,
      platform_username: null,
      metadata: {},
    });
    await contract('PUT', template, conn, {
      auth,
      status: 200,
      json: { platform_name: 'VRChat', platform_username: 'Echo', metadata: { verified: '1', trust: 3 } },
    });
    await contract('DELETE', template, conn, { auth });
  });
});

describe('application, oauth2 info, gateway', () => {
  it('GET /applications/@me, /oauth2/applications/@me, /oauth2/@me, /gateway, /gateway/bot', async () => {
    await contract('GET', '/applications/@me', '/applications/@me');
    await contract('GET', '/oauth2/applications/@me', '/oauth2/applications/@me');
    const token = await userToken(sim.url, member, 'identify guilds');
    const info = await contract('GET', '/oauth2/@me', '/oauth2/@me', {
      auth: `Bearer ${token.access_token}`,
    });
    expect(info).toMatchObject({ scopes: ['identify', 'guilds'], user: { id: member } });
    await contract('GET', '/gateway', '/gateway', { auth: null });
    const gw = await contract('GET', '/gateway/bot', '/gateway/bot');
    expect(gw).toMatchObject({ url: `${sim.url.replace('http', 'ws')}/discord/gateway`, shards: 1 });
  });
});

describe('interactions and their webhooks', () => {
  it('callback, @original, follow-ups', async () => {
    await call(sim.url, 'PUT', `/api/v10/applications/${app}/guilds/${hangout.id}/commands`, {
      json: [{ name: 'ping', description: 'Ping' }],
    });
    const start = async () =>
      (
        await call(sim.url, 'POST', '/control/discord/interactions', {
          auth: null,
          json: { guildId: hangout.id, userId: member, commandName: 'ping' },
        })
      ).body as { interactionId: string; token: string };
    const first = await start();
    await contract(
      'POST',
      '/interactions/{interaction_id}/{interaction_token}/callback',
      `/interactions/${first.interactionId}/${first.token}/callback`,
      {
        auth: null,
        status: 204,
        json: { type: 5 },
      },
    );
    const wh = `/webhooks/${app}/${first.token}`;
    await contract(
      'PATCH',
      '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
      `${wh}/messages/@original`,
      {
        auth: null,
        json: { content: 'done' },
      },
    );
    await contract(
      'GET',
      '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
      `${wh}/messages/@original`,
      { auth: null },
    );
    const follow = (await contract('POST', '/webhooks/{webhook_id}/{webhook_token}', `${wh}?wait=true`, {
      auth: null,
      json: { content: 'more', flags: 64 },
    })) as { id: string };
    await contract(
      'PATCH',
      '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
      `${wh}/messages/${follow.id}`,
      {
        auth: null,
        json: { content: 'edited' },
      },
    );
    await contract(
      'DELETE',
      '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
      `${wh}/messages/@original`,
      { auth: null },
    );

    const second = await start();
    const res = await contract(
      'POST',
      '/interactions/{interaction_id}/{interaction_token}/callback',
      `/interactions/${second.interactionId}/${second.token}/callback?with_response=true`,
      {
        auth: null,
        json: { type: 4, data: { content: 'pong' } },
      },
    );
    expect(res).toMatchObject({
      interaction: { id: second.interactionId, type: 2 },
      resource: { type: 4, message: { content: 'pong' } },
    });
  });
});

describe('error bodies match the spec error schemas', () => {
  it('401, 403 50013, 404 10004 and 50035 use the ClientErrorResponse shape', async () => {
    const unauth = await call(sim.url, 'GET', '/api/v10/users/@me', { auth: 'Bot wrong' });
    expect(unauth).toMatchObject({ status: 401, body: { message: '401: Unauthorized', code: 0 } });
    expectMatchesDiscordSpec('GET', '/users/@me', 401, unauth.body);
    const above = await call(
      sim.url,
      'PUT',
      `/api/v10/guilds/${hangout.id}/members/${member}/roles/${hangout.roles.Moderator}`,
    );
    expect(above).toMatchObject({ status: 403, body: { code: 50013, message: 'Missing Permissions' } });
    expectMatchesDiscordSpec('PUT', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', 403, above.body);
    const unknown = await call(sim.url, 'GET', '/api/v10/guilds/1300000000000000099');
    expect(unknown).toMatchObject({ status: 404, body: { code: 10004 } });
    expectMatchesDiscordSpec('GET', '/guilds/{guild_id}', 404, unknown.body);
    const invalid = await call(sim.url, 'POST', `/api/v10/applications/${app}/commands`, {
      json: { name: 'x'.repeat(40) },
    });
    expect(invalid).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH' }] } } },
    });
    expectMatchesDiscordSpec('POST', '/applications/{application_id}/commands', 400, invalid.body);
  });
});
