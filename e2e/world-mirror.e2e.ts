import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useBrowser } from './browser';

/**
 * The Trusted URL in demo mode: the mirror pushes to a bare repository under DATA_DIR and this server
 * serves it at /mirror, so a world with Github Updates Enabled opens the same data as its Untrusted URL.
 */
const browser = useBrowser();

const HANGOUT = '1300000000000000001';
const NAME = 'Mirrored World';

async function openWorldsTab(page: Page): Promise<void> {
  await browser.goto(`/server-settings/${HANGOUT}/worlds`);
  await page.getByRole('article', { name: 'Hangout Lobby' }).waitFor();
}

/** The document without its build time (a mirrored body is kept while only that moves). */
const withoutBuildTime = (body: string) => {
  const { LastUpdated: _built, ...doc } = JSON.parse(body);
  return doc;
};

describe('the Trusted URL (demo mode)', () => {
  it('opens the mirrored data once the mirror ran, the same document as the Untrusted URL', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await openWorldsTab(page);

    // A world with Github Updates Enabled.
    // Wait for the new card: until it renders, the last card is the seeded world, which this would rename.
    const before = await page.getByRole('article').count();
    await page.getByRole('button', { name: 'Create new' }).click();
    await vi.waitFor(async () => expect(await page.getByRole('article').count()).toBe(before + 1), {
      timeout: 15_000,
    });
    const created = page.getByRole('article').last();
    await created.getByLabel('World name').fill(NAME);
    await created.getByLabel('World name').press('Enter');
    const card = page.getByRole('article', { name: NAME });
    await card.waitFor();
    // The mirror's last run before the world can be in it (the schedule may run it at any moment).
    const lastRun = async () =>
      ((await (await page.request.get('/api/admin/world-mirror')).json()) as { lastRunAt: string | null })
        .lastRunAt;
    const runBefore = await lastRun();
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 200);
    await card.getByRole('switch', { name: 'Github Updates Enabled' }).click({ force: true });
    await saved;
    const trusted = card.getByRole('link', { name: 'Trusted URL', exact: true });
    const trustedUrl = (await trusted.getAttribute('href')) ?? '';
    expect(trustedUrl).toMatch(new RegExp(`^${browser.baseUrl}/mirror/worlds/[0-9a-f-]{36}$`));
    const worldId = trustedUrl.split('/').at(-1);
    // Not in the mirror until it runs (every 10 minutes, or Run now on /admin): if it is there already, the
    // schedule ran it since the switch (a loaded machine once took long enough between the two for that).
    const early = (await fetch(trustedUrl)).status;
    if (early === 200) expect(await lastRun(), 'a mirror run since the switch').not.toBe(runBefore);
    else expect(early).toBe(404);

    // Run now on /admin (in a second tab); the World mirror panel shows the push.
    const admin = await page.context().newPage();
    await admin.goto('/admin', { waitUntil: 'networkidle' });
    const row = admin.getByRole('row', { name: /\bmirrorWorlds\b/ }).first();
    // Wait for the world itself in the mirror, not only for a recent push: a push another journey's change started
    // a moment earlier also reads "just now" and may not hold this world (then Run now once more).
    for (let tries = 0; (await fetch(trustedUrl)).status !== 200; tries++) {
      expect(tries, 'the world reached the mirror').toBeLessThan(120);
      if (tries % 20 === 0) await row.getByRole('button', { name: 'Run now: mirrorWorlds' }).click();
      await new Promise((r) => setTimeout(r, 500));
    }
    const panel = admin.getByRole('region', { name: 'World mirror' });
    await vi.waitFor(async () => expect(await panel.textContent()).toMatch(/Last push(just now|\d+s ago)/), {
      timeout: 20_000,
      interval: 250,
    });
    expect(await panel.getByRole('alert').count()).toBe(0);
    await admin.close();

    // The Trusted URL opens (in a new tab) the data the Untrusted URL serves.
    const [tab] = await Promise.all([page.waitForEvent('popup'), trusted.click()]);
    await tab.waitForLoadState();
    const mirrored = (await tab.locator('body').textContent()) ?? '';
    const served = await (await fetch(`${browser.baseUrl}/data/v2/${worldId}`)).text();
    expect(withoutBuildTime(mirrored)).toEqual(withoutBuildTime(served));
    await tab.close();

    // Clean up for the other journeys sharing this server: unlock, then delete.
    await card.getByRole('button', { name: 'Unlock world' }).click();
    await page.getByRole('dialog', { name: 'Unlock World' }).getByRole('button', { name: 'Confirm' }).click();
    await card.getByRole('button', { name: 'Lock world' }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete World' }).getByRole('button', { name: 'Delete' }).click();
    await card.waitFor({ state: 'detached' });
  }, 120_000);
});
