import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * The simulator behaves like real Discord (no member list in GUILD_CREATE): the Members tab still shows the
 * whole server, from the member mirror the bot fills over the gateway, and a member who joins appears
 * within 2 seconds.
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
  it('shows every member of the server and a newcomer within 2 seconds', async () => {
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
    // The mirror has the newcomer within 2 s of the join (asked through the same API the tab uses).
    for (;;) {
      const res = await page.request.get(
        `/api/members/${hangout}?search=${name}&searchBy=DiscordName&page=1`,
      );
      if (res.ok() && ((await res.json()) as { totalCount: number }).totalCount === 1) break;
      if (Date.now() - joinedAt > 2000) throw new Error('the newcomer did not reach the mirror within 2 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Date.now() - joinedAt).toBeLessThan(2000);
    await page.getByRole('textbox', { name: 'Search' }).fill(name);
    await page.getByLabel(name, { exact: true }).waitFor();
  });
});
