import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { seedGuildIds } from '../src/discord/seed.js';
import { call } from './discord-helpers.js';

const hangout = seedGuildIds.hangout;
const VIEW_CHANNEL = String(1 << 10);
const SEND_MESSAGES = String(1 << 11);
const EMBED_LINKS = String(1 << 14);

let sim: RunningSimulator;
const control = (method: string, path: string, json?: unknown) =>
  call(sim.url, method, `/control/discord${path}`, { auth: null, json });
const post = (channelId: string, json: unknown) =>
  call(sim.url, 'POST', `/api/v10/channels/${channelId}/messages`, { json });

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

describe('channels through the control API, and who may post in them', () => {
  it('creates a channel the bot can post in, listed with its overwrites', async () => {
    const made = await control('POST', `/guilds/${hangout.id}/channels`, {
      name: 'staff',
      permissionOverwrites: [{ id: hangout.id, type: 0, deny: VIEW_CHANNEL }],
    });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    const listed = (await call(sim.url, 'GET', `/api/v10/guilds/${hangout.id}/channels`)).body as {
      id: string;
      permission_overwrites: { id: string; deny: string }[];
    }[];
    expect(listed.find((c) => c.id === id)?.permission_overwrites).toEqual([
      { id: hangout.id, type: 0, allow: '0', deny: VIEW_CHANNEL },
    ]);
    // Hidden from @everyone, and the bot's role is not let in: Missing Access.
    expect((await post(id, { content: 'hi' })).body).toMatchObject({ code: 50001 });
    await control('PATCH', `/channels/${id}`, {
      permissionOverwrites: [
        { id: hangout.id, type: 0, deny: VIEW_CHANNEL },
        { id: hangout.roles.VRCLink, type: 0, allow: VIEW_CHANNEL },
      ],
    });
    expect((await post(id, { content: 'hi' })).status).toBe(200);
  });

  it('refuses Send Messages and embeds without Embed Links with 50013', async () => {
    const id = (
      (
        await control('POST', `/guilds/${hangout.id}/channels`, {
          name: 'quiet',
          permissionOverwrites: [{ id: hangout.roles.VRCLink, type: 0, deny: EMBED_LINKS }],
        })
      ).body as { id: string }
    ).id;
    expect((await post(id, { content: 'text is fine' })).status).toBe(200);
    expect((await post(id, { embeds: [{ title: 'no' }] })).body).toMatchObject({ code: 50013 });
    await control('PATCH', `/channels/${id}`, {
      permissionOverwrites: [{ id: hangout.roles.VRCLink, type: 0, deny: SEND_MESSAGES }],
    });
    expect((await post(id, { content: 'no' })).body).toMatchObject({ code: 50013 });
  });

  it('deletes a channel: posting there is Unknown Channel', async () => {
    const id = (
      (await control('POST', `/guilds/${hangout.id}/channels`, { name: 'doomed' })).body as { id: string }
    ).id;
    expect((await control('DELETE', `/channels/${id}`)).status).toBe(204);
    const res = await post(id, { content: 'gone?' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 10003 });
    expect((await control('DELETE', `/channels/${id}`)).status).toBe(404);
  });
});

describe('a message nonce', () => {
  const channelOf = async (name: string) =>
    ((await control('POST', `/guilds/${hangout.id}/channels`, { name })).body as { id: string }).id;
  const transcript = async (channelId: string) =>
    (await call(sim.url, 'GET', `/api/v10/channels/${channelId}/messages`)).body as { id: string }[];

  it('with enforce_nonce answers the message already created with that nonce and creates none', async () => {
    const id = await channelOf('nonce-log');
    const first = await post(id, { content: 'once', nonce: 'log-1', enforce_nonce: true });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ content: 'once', nonce: 'log-1' });
    const again = await post(id, { content: 'once', nonce: 'log-1', enforce_nonce: true });
    expect(again.status).toBe(200);
    expect((again.body as { id: string }).id).toBe((first.body as { id: string }).id);
    expect(await transcript(id)).toHaveLength(1);
    // Without enforce_nonce the nonce is only echoed: a second message is made.
    await post(id, { content: 'twice', nonce: 'log-2' });
    await post(id, { content: 'twice', nonce: 'log-2' });
    expect(await transcript(id)).toHaveLength(3);
  });

  it('refuses a nonce longer than 25 characters', async () => {
    const id = await channelOf('nonce-long');
    const res = await post(id, { content: 'x', nonce: 'n'.repeat(26), enforce_nonce: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 50035 });
  });
});

describe('a slow_answer fault', () => {
  it('makes the message at once and holds the answer', async () => {
    const made = await control('POST', `/guilds/${hangout.id}/channels`, { name: 'late-answer' });
    const id = (made.body as { id: string }).id;
    const fault = { platform: 'discord', kind: 'slow_answer', delayMs: 5000, count: 1, pathContains: id };
    expect((await call(sim.url, 'POST', '/control/faults', { auth: null, json: fault })).status).toBe(201);
    let answered = false;
    const answer = post(id, { content: 'made before the answer' }).then((res) => {
      answered = true;
      return res;
    });
    const transcript = async () =>
      (await call(sim.url, 'GET', `/api/v10/channels/${id}/messages`)).body as { content: string }[];
    while ((await transcript()).length === 0) await new Promise((r) => setTimeout(r, 25));
    // The message is there while its answer is still held.
    expect(answered).toBe(false);
    expect((await answer).status).toBe(200);
    expect((await transcript()).map((m) => m.content)).toEqual(['made before the answer']);
  });
});
