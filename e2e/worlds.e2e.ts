import { mkdirSync, readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useBrowser } from './browser';

/**
 * The Worlds tab in demo mode: the seeded 'Hangout Lobby' of VRChat Hangout, and a world created, set up,
 * previewed, downloaded by its address and deleted again. Seeded ids: apps/simulator/src/discord/seed.ts.
 */
const browser = useBrowser();

const HANGOUT = '1300000000000000001';
const PLAIN_MEMBER = '1200000000000000010'; // a Hangout member without roles or granted permissions
const GREEN = 'rgb(64, 192, 87)'; // Mantine green-6
const RED = 'rgb(250, 82, 82)'; // Mantine red-6

async function openWorldsTab(page: Page): Promise<void> {
  await browser.goto('/server-settings');
  await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
  await page.getByRole('tab', { name: 'Worlds' }).click();
  await page.waitForURL(`${browser.baseUrl}/server-settings/${HANGOUT}/worlds`);
}

const chips = (card: Locator, picker: string) =>
  card.getByRole('group', { name: picker }).locator('[aria-roledescription="sortable"]').allTextContents();

const borderColour = (textarea: Locator) => textarea.evaluate((el) => getComputedStyle(el).borderTopColor);

/** What the world itself downloads from its Untrusted URL (public, no cookies). */
async function download(untrustedUrl: string): Promise<Response> {
  return fetch(untrustedUrl.replace(/^https?:\/\/[^/]+/, browser.baseUrl));
}

async function addRole(page: Page, card: Locator, picker: string, role: string): Promise<void> {
  const saved = page.waitForResponse((r) => r.url().endsWith('/roles') && r.request().method() === 'POST');
  await card.getByRole('combobox', { name: picker }).click();
  await card.getByRole('combobox', { name: picker }).fill(role);
  await page.getByRole('option', { name: role, exact: true }).click();
  expect((await saved).status()).toBe(200);
  await page.keyboard.press('Escape');
}

describe('Worlds tab', () => {
  it('shows the seeded world, and creates, sets up, previews, serves and deletes a world', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await openWorldsTab(page);

    const lobby = page.getByRole('article', { name: 'Hangout Lobby' });
    await lobby.waitFor();
    expect(await chips(lobby, 'Discord Encode Roles')).toEqual(['Admin', 'Moderator', 'Verified']);
    expect(await chips(lobby, 'Discord Always Encode Roles')).toEqual(['Event Host', 'Guest']);
    expect(await chips(lobby, 'Group Encode Roles')).toEqual(['Owner', 'Moderator', 'Verified 18+']);
    expect(await chips(lobby, 'Group Always Encode Roles')).toEqual(['Event Host']);
    await expect.poll(() => lobby.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    // Demo mode: the mirror is a repository this server serves itself (e2e/world-mirror.e2e.ts opens it).
    expect(await lobby.getByRole('link', { name: 'Trusted URL', exact: true }).getAttribute('href')).toMatch(
      /\/mirror\/worlds\/[0-9a-f-]{36}$/,
    );

    // Create new, then rename it in place.
    const before = await page.getByRole('article').count();
    await page.getByRole('button', { name: 'Create new' }).click();
    await vi.waitFor(async () => expect(await page.getByRole('article').count()).toBe(before + 1), {
      timeout: 15_000,
    });
    await page.getByRole('article').last().getByLabel('World name').fill('E2E World');
    await page.getByRole('article').last().getByLabel('World name').press('Enter');
    const card = page.getByRole('article', { name: 'E2E World' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Unlock world' }).waitFor();

    // Switches save at once and stay after a reload.
    for (const name of ['Github Updates Enabled', 'Include Group Data', 'JSON Custom Data Mode']) {
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 200);
      await card.getByRole('switch', { name }).click({ force: true });
      await saved;
    }

    // Roles: add two, then move the second in front with the keyboard (Space, arrows, Space).
    await addRole(page, card, 'Discord Encode Roles', 'Verified');
    await addRole(page, card, 'Discord Encode Roles', 'Admin');
    expect(await chips(card, 'Discord Encode Roles')).toEqual(['Verified', 'Admin']);
    const admin = card
      .getByRole('group', { name: 'Discord Encode Roles' })
      .getByRole('group', { name: 'Admin', exact: true });
    await admin.focus();
    await page.keyboard.press('Space');
    await vi.waitFor(async () => expect(await admin.getAttribute('data-dragging')).toBe('true'), {
      timeout: 15_000,
    });
    // Each press moves the chip 25 px (unit-tested in roleSensors.test.ts): go until it is 125 px left, past
    // the middle of 'Verified'. A press that lands before the sensor is listening just moves nothing.
    const offset = async () =>
      Number((await admin.getAttribute('style'))?.match(/translate3d\((-?\d+)px/)?.[1] ?? 0);
    for (let press = 0; press < 12 && (await offset()) > -125; press++) {
      const before = await offset();
      await page.keyboard.press('ArrowLeft');
      await vi
        .waitFor(async () => expect(await offset()).not.toBe(before), { timeout: 1000 })
        .catch(() => {});
    }
    expect(await offset()).toBe(-125);
    const reordered = page.waitForResponse((r) => r.url().endsWith('/roles'));
    await page.keyboard.press('Space');
    expect((await reordered).status()).toBe(200);

    await page.reload({ waitUntil: 'networkidle' });
    await card.waitFor();
    expect(await chips(card, 'Discord Encode Roles')).toEqual(['Admin', 'Verified']);
    for (const name of ['Github Updates Enabled', 'Include Group Data', 'JSON Custom Data Mode']) {
      expect(await card.getByRole('switch', { name }).isChecked()).toBe(true);
    }

    // And with the mouse: drag 'Verified' back in front of 'Admin'.
    const picker = card.getByRole('group', { name: 'Discord Encode Roles' });
    await picker.scrollIntoViewIfNeeded();
    const from = (await picker.getByRole('group', { name: 'Verified', exact: true }).boundingBox())!;
    const to = (await picker.getByRole('group', { name: 'Admin', exact: true }).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 5, to.y + to.height / 2, { steps: 12 });
    const dragged = page.waitForResponse((r) => r.url().endsWith('/roles'));
    await page.mouse.up();
    expect((await dragged).status()).toBe(200);
    expect(await chips(card, 'Discord Encode Roles')).toEqual(['Verified', 'Admin']);

    // Custom World Data in JSON mode: green border after a save, red (and the alert) after an invalid one.
    const data = card.getByRole('textbox', { name: 'Custom World Data' });
    expect(Number(await data.getAttribute('rows'))).toBeGreaterThanOrEqual(30);
    await data.fill('{"motd": "Hello from e2e"}');
    await data.blur();
    await vi.waitFor(async () => expect(await borderColour(data)).toBe(GREEN), { timeout: 15_000 });
    await data.fill('{"motd": ');
    await data.blur();
    await vi.waitFor(async () => expect(await borderColour(data)).toBe(RED), { timeout: 15_000 });
    const alert = card.getByRole('alert').filter({ hasText: 'Failed to update world settings' });
    await alert.getByText('Custom World Data is not valid JSON.').waitFor();
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/worlds.png', fullPage: true });

    // Preview: the pretty document, and Download gives '<world name>.json'.
    await card.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview: E2E World' });
    const json = dialog.getByTestId('preview-json');
    await json.waitFor();
    const previewed = JSON.parse((await json.textContent()) ?? '');
    expect(previewed).toMatchObject({ Version: expect.any(Number), CustomData: { motd: 'Hello from e2e' } });
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('E2E World.json');
    expect(JSON.parse(readFileSync((await file.path()) ?? '', 'utf8'))).toMatchObject({
      CustomData: { motd: 'Hello from e2e' },
    });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });

    // The Untrusted URL serves the document the world downloads.
    const untrustedUrl = (await card.getByRole('link', { name: 'Untrusted URL' }).getAttribute('href')) ?? '';
    expect(untrustedUrl).toMatch(/\/data\/v2\/[0-9a-f-]{36}$/);
    await vi.waitFor(
      async () => {
        const response = await download(untrustedUrl);
        expect(response.status).toBe(200);
        expect(JSON.parse(await response.text())).toMatchObject({ CustomData: { motd: 'Hello from e2e' } });
      },
      { timeout: 30_000, interval: 500 },
    );

    // Compression cannot be turned off once on; the body is then no longer plain JSON.
    await card.getByRole('switch', { name: 'Compression' }).click({ force: true });
    await vi.waitFor(
      async () => expect(await card.getByRole('switch', { name: 'Compression' }).isDisabled()).toBe(true),
      { timeout: 15_000 },
    );
    await card.getByText('Compression cannot be turned off once on.').waitFor();
    await vi.waitFor(
      async () => expect((await (await download(untrustedUrl)).text()).startsWith('{')).toBe(false),
      { timeout: 30_000, interval: 500 },
    );

    // Unlock (confirmed), then delete (confirmed).
    await card.getByRole('button', { name: 'Unlock world' }).click();
    const unlock = page.getByRole('dialog', { name: 'Unlock World' });
    await unlock.getByText(/removes all its data and cannot be undone/).waitFor();
    await unlock.getByRole('button', { name: 'Confirm' }).click();
    await card.getByRole('button', { name: 'Lock world' }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete World' }).getByRole('button', { name: 'Delete' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: 'Hangout Lobby' }).waitFor();
    expect((await download(untrustedUrl)).status).toBe(404);
  }, 120_000);

  it('does not list the Hangout for a member without permissions there', async () => {
    const { page } = browser;
    await browser.signIn({ id: PLAIN_MEMBER });
    await browser.goto('/server-settings');
    const servers = page.getByRole('navigation', { name: 'Your servers' });
    await servers.waitFor();
    expect(await servers.getByText('VRChat Hangout').count()).toBe(0);
    await browser.goto(`/server-settings/${HANGOUT}/worlds`);
    // They manage no server at all: the pane says so (and offers to invite the bot), never the Hangout.
    await page.getByText('No Servers to Manage').waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    const worlds = await page.request.get(`/api/guilds/${HANGOUT}/worlds`);
    expect(worlds.status()).toBe(403);
  });
});
