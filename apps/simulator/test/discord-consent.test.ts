import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { discordApp } from '../src/demo.js';
import { seedGuildIds, seedUserIds } from '../src/discord/seed.js';
import { call, REDIRECT_URI } from './discord-helpers.js';

const hangout = seedGuildIds.hangout;
const rowIds = (html: string) => [...html.matchAll(/name="user_id" value="(\d+)"/g)].map((m) => m[1]);

/** The consent page at scale: after a server grows to 100,000 members it still shows at most 50 users. */
describe('the consent page with 100,000 users', () => {
  let sim: RunningSimulator;
  let bulkUser: { id: string; username: string };
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, redirectUris: [REDIRECT_URI] });
    const seeded = await call(sim.url, 'POST', `/control/discord/guilds/${hangout.id}/bulk-members`, {
      auth: null,
      json: { count: 100_000 },
    });
    expect(seeded.status).toBe(201);
    const page = await call(
      sim.url,
      'GET',
      `/api/v10/guilds/${hangout.id}/members?limit=1000&after=1300000000000000000`,
    );
    const member = (page.body as { user: { id: string; username: string } }[]).at(-1)!;
    bulkUser = { id: member.user.id, username: member.user.username };
  }, 60_000);
  afterAll(() => sim.close());

  const pageUrl = `/oauth2/authorize?${new URLSearchParams({
    client_id: discordApp.clientId,
    response_type: 'code',
    scope: 'identify',
    redirect_uri: REDIRECT_URI,
  })}`;

  it('shows the signed-in account first and at most 50 users', async () => {
    const started = performance.now();
    const res = await fetch(sim.url + pageUrl, { headers: { cookie: `discord_sim_user=${bulkUser.id}` } });
    const html = await res.text();
    process.stdout.write(`consent page at 100,000 users: ${Math.round(performance.now() - started)} ms\n`);
    expect(res.status).toBe(200);
    const ids = rowIds(html);
    expect(ids.length).toBeLessThanOrEqual(50);
    expect(ids[0]).toBe(bulkUser.id);
    expect(html).toMatch(new RegExp(`<p class="signed-in">${bulkUser.username}`));
    // Without a signed-in account the seeded people come first, the admin chosen.
    const plain = await (await fetch(sim.url + pageUrl)).text();
    expect(rowIds(plain)).toHaveLength(50);
    expect(rowIds(plain)[0]).toBe(seedUserIds.admin);
  });

  it('the search asks the simulator: a name or an id finds anyone, at most 50 answers', async () => {
    const search = async (q: string, selected = '') =>
      (await fetch(`${sim.url}/oauth2/authorize/users?${new URLSearchParams({ q, selected })}`)).text();
    expect(rowIds(await search(bulkUser.username))).toContain(bulkUser.id);
    expect(rowIds(await search(bulkUser.id))).toEqual([bulkUser.id]);
    expect(rowIds(await search('a'))).toHaveLength(50);
    // The chosen person stays first (and chosen) whatever the search.
    const kept = await search('a', bulkUser.id);
    expect(rowIds(kept)[0]).toBe(bulkUser.id);
    expect(kept).toMatch(new RegExp(`value="${bulkUser.id}"[^>]* checked`));
    expect(await search('no-such-person-here')).toContain('No user matches this search.');
  });

  it('shows names as text, never as markup', async () => {
    await call(sim.url, 'POST', '/control/discord/users', {
      auth: null,
      json: { username: '<img src=x onerror=alert(1)>', globalName: '<b>Bold</b>' },
    });
    const html = await (await fetch(`${sim.url}/oauth2/authorize/users?q=onerror`)).text();
    expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt;');
    expect(html).not.toContain('<img');
  });
});
