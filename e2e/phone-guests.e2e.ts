import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * The guest screens on a phone (390 px): Setup Guests (the host's guests, each with Unassign) and the
 * Guest Users dialog (main role, guest role, count per entry) must fit the screen and stay usable; a visitor
 * sees the login in the header, and short buttons next to long names keep their whole label.
 * The demo admin owns the Hangout, which has guest-role entries in the demo seed.
 */
const WIDTH = 390;
const browser = useBrowser({ width: WIDTH, height: 844 });
const HANGOUT = '1300000000000000001';

/** Within 0..390 as laid out, with nothing to scroll sideways to reach it (no scrolling done here). */
async function expectWithinViewport(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, 'laid out').not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  const sideways = await locator.evaluate((element) => {
    const wide: string[] = [];
    for (let el = element.parentElement; el; el = el.parentElement) {
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
        wide.push(`${el.tagName}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }
    return wide;
  });
  expect(sideways, 'containers that scroll sideways').toEqual([]);
}

/** The button's whole label shows: the label is not cut off by a button squeezed narrower than its text. */
async function expectWholeLabel(button: Locator): Promise<void> {
  await expectWithinViewport(button);
  const clipped = await button.evaluate((element) => {
    const label = element.querySelector('.mantine-Button-label') ?? element;
    return label.scrollWidth > label.clientWidth + 1 ? `${label.scrollWidth} > ${label.clientWidth}` : null;
  });
  expect(clipped, `label of ${await button.textContent()} clipped`).toBeNull();
}

/** Signs the demo admin in and opens Setup Guests for the Hangout from the profile page. */
async function openSetupGuests(): Promise<Locator> {
  const { page } = browser;
  await browser.signIn('admin');
  const server = page.getByRole('listitem', { name: 'VRChat Hangout' });
  await server.getByRole('button', { name: 'Setup Guests' }).click();
  const dialog = page.getByRole('dialog', { name: 'VRChat Hangout' });
  await dialog.getByText(/^Used \d+\/\d+/).waitFor();
  return dialog;
}

describe('guests on a phone (390 px)', () => {
  it('shows a visitor who is not logged in a Login button in the header, without opening the menu', async () => {
    const { page } = browser;
    await browser.goto('/');
    const login = page.getByRole('banner').getByRole('link', { name: 'Login', exact: true });
    await login.waitFor();
    expect(await login.isVisible()).toBe(true);
    await expectWholeLabel(login);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
  });

  it('keeps the whole labels of Assign (guest search), Link (account search) and the role mappings Setup', async () => {
    const { page } = browser;
    const dialog = await openSetupGuests();
    await dialog.getByRole('button', { name: 'Add Guest' }).click();
    const panel = dialog.getByRole('region', { name: 'Add guest' });
    // Akira's result also carries a 'VRChat linked' badge: the longest row.
    await panel.getByLabel('Discord member').fill('akira');
    const assign = panel.getByRole('listitem', { name: /Akira/i }).getByRole('button', { name: 'Assign' });
    await assign.waitFor();
    await expectWholeLabel(assign);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Link Account' }).click();
    const link = page.getByRole('dialog', { name: 'Link Account' });
    await link.getByRole('textbox', { name: /VRChat account/ }).fill('Orion Drift');
    const linkButton = link
      .getByRole('listitem', { name: 'Orion Drift' })
      .getByRole('button', { name: 'Link' });
    await linkButton.waitFor({ timeout: 15_000 });
    await expectWholeLabel(linkButton);
    await page.keyboard.press('Escape');

    await browser.goto(`/server-settings/${HANGOUT}/vrchat`);
    for (const name of ['Discord to Group Roles setup', 'Group to Discord Roles setup']) {
      const setup = page.getByRole('button', { name });
      await setup.waitFor();
      await expectWholeLabel(setup);
    }
  });

  it('shows Setup Guests with Unassign on screen and clickable', async () => {
    const { page } = browser;
    const dialog = await openSetupGuests();

    // Another journey may have left guests; without any, assign one through the Discord search.
    const unassignButtons = dialog.getByRole('button', { name: /^Unassign / });
    let added = false;
    if ((await unassignButtons.count()) === 0) {
      await dialog.getByRole('button', { name: 'Add Guest' }).click();
      const panel = dialog.getByRole('region', { name: 'Add guest' });
      await panel.getByLabel('Discord member').fill('hikari');
      await panel
        .getByRole('listitem', { name: /Hikari|hikari/ })
        .getByRole('button', { name: 'Assign' })
        .click();
      await page.getByText('Guest assigned.').first().waitFor();
      added = true;
      await dialog.getByRole('button', { name: 'Add Guest' }).click();
    }
    const unassign = unassignButtons.first();
    await unassign.waitFor();
    await expectWithinViewport(unassign);
    await unassign.click();
    const ask = page.getByRole('dialog', { name: 'Unassign Guest' });
    await ask.waitFor();
    // Leave the demo data as it was: remove only the guest this test added.
    await ask.getByRole('button', { name: added ? 'Confirm' : 'Cancel' }).click();
    if (added) await page.getByText('Guest unassigned.').first().waitFor();
  });

  it('shows the Guest Users entries as one table that fits, its column names said once', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto(`/server-settings/${HANGOUT}/discord`);
    await page.getByText('Guest Roles', { exact: true }).waitFor();
    const setup = page.getByRole('button', { name: 'Setup', exact: true });
    await expectWholeLabel(setup);
    await setup.click();
    const dialog = page.getByRole('dialog', { name: 'Guest Users' });
    const entry = dialog.getByRole('row', { name: 'Guest role 1', exact: true });
    await entry.waitFor();
    const table = dialog.getByRole('table', { name: 'Guest roles' });
    expect(await table.evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
    await expectWithinViewport(table);
    // Each column's name once, in the header; none again inside the rows.
    for (const name of ['Main Role', 'Guest Role', 'Count']) {
      expect(await dialog.getByText(name, { exact: true }).count(), name).toBe(1);
      const select = entry.getByRole('combobox', { name });
      await expectWithinViewport(select);
      const box = await select.boundingBox();
      expect(box?.width ?? 0, `${name} width`).toBeGreaterThanOrEqual(name === 'Count' ? 56 : 100);
    }
    await expectWithinViewport(entry.getByRole('button', { name: 'Remove guest role 1' }));
  });
});
