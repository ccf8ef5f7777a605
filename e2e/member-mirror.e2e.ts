import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * The simulator behaves like real Discord (no member list in GUILD_CREATE): the Members tab still shows the
 * whole server, from the member mirror the bot fills over the gateway, and a member who joins appears there
 * (the test prints how long that took).
 */
const browser = useBrowser();
const hangout = seedGuildIds.hangout.id;

async function simulator(method: string, path: string, body?: unknown) {
  const res = await fetch(`${inject('simulatorUrl')}/control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

describe('members from the mirror', () => {
  it('shows every member of the server, and a newcomer once the bot saw the join', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto(`/server-settings/${hangout}/members`);
    await page.getByText('Discord Member Search').waitFor();
    const guild = (await simulator('GET', `/discord/guilds/${hangout}`)) as { members: unknown[] };
    const total = page.getByText(/^Total: \d+$/);
    await total.waitFor();
    expect(Number((await total.textContent())?.replace('Total: ', ''))).toBe(guild.members.length);

    const name = `mirror.newcomer.${Date.now()}`;
    await simulator('POST', `/discord/guilds/${hangout}/members`, { username: name });
    const joinedAt = Date.now();
    // The mirror has the newcomer (asked through the same API the tab uses) once the bot took the gateway's
    // event in; waited for up to 30 s, as a loaded machine may need (how long it took is printed).
    await expect
      .poll(
        async () => {
          const res = await page.request.get(
            `/api/members/${hangout}?search=${name}&searchBy=DiscordName&page=1`,
          );
          return res.ok() ? ((await res.json()) as { totalCount: number }).totalCount : res.status();
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(1);
    console.log(`member mirror: the newcomer was there ${Date.now() - joinedAt} ms after the join`);
    await page.getByRole('textbox', { name: 'Search' }).fill(name);
    await page.getByLabel(name, { exact: true }).waitFor();
  });
});
