import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * The guest screens on a phone (390 px): Setup Guests (the host's guests, each with Unassign) and the
 * Guest Users dialog (main role, guest role, count per entry) must fit the screen and stay usable.
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

describe('guests on a phone (390 px)', () => {
  it('shows Setup Guests with Unassign on screen and clickable', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    const server = page.getByRole('listitem', { name: 'VRChat Hangout' });
    await server.getByRole('button', { name: 'Setup Guests' }).click();
    const dialog = page.getByRole('dialog', { name: 'VRChat Hangout' });
    await dialog.getByText(/^Used \d+\/\d+/).waitFor();

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

  it('stacks the Guest Users selects at a usable width', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto(`/server-settings/${HANGOUT}/discord`);
    await page.getByText('Guest Roles', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Setup', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Guest Users' });
    const entry = dialog.getByLabel('Guest role 1', { exact: true });
    await entry.waitFor();
    for (const name of ['Main Role', 'Guest Role', 'Count']) {
      const select = entry.getByRole('combobox', { name });
      await expectWithinViewport(select);
      const box = await select.boundingBox();
      expect(box?.width ?? 0, `${name} width`).toBeGreaterThanOrEqual(200);
    }
    await expectWithinViewport(entry.getByRole('button', { name: 'Remove guest role 1' }));
  });
});
