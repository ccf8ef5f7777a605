import { seedGuildIds } from '@vrclink/simulator';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useBrowser } from './browser';

/**
 * A keyboard user, no mouse: signs in through the consent page, chooses a server on Server Settings,
 * changes a setting and saves it, opens a dialog and closes it. Every step is Tab, Space, Enter, the
 * arrow keys or Escape; nothing is clicked. As the Furry Dance Club's owner (not a platform admin).
 */
const browser = useBrowser();
const OWNER = 'dj_pawsome';
const DANCE_CLUB = seedGuildIds.danceClub;
const MAX_TABS = 80;

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab until the target has focus; fails if it is not reached in MAX_TABS presses. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < MAX_TABS; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

describe('keyboard alone', () => {
  it('signs in, chooses a server, changes and saves a setting, opens and closes a dialog', async () => {
    const { page } = browser;
    await browser.goto('/');

    // The skip link, before the header's links; following it moves past the header to the page.
    await tabTo(page, page.getByRole('link', { name: 'Skip to main content' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    await tabTo(page, page.getByRole('link', { name: 'Login through Discord' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/oauth2\/authorize/);
    // Tab enters the list of users on the chosen one (the first); the arrow keys move and choose.
    await tabTo(page, page.getByRole('radio', { checked: true }));
    const owner = page.getByRole('radio', { name: OWNER, exact: true });
    for (let presses = 0; presses < 10 && !(await owner.isChecked()); presses++)
      await page.keyboard.press('ArrowDown');
    expect(await owner.isChecked()).toBe(true);
    await tabTo(page, page.getByRole('button', { name: 'Authorize' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/profile$/);

    await tabTo(
      page,
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Server Settings' }),
    );
    await page.keyboard.press('Enter');
    const server = page
      .getByRole('navigation', { name: 'Your servers' })
      .getByRole('link', { name: 'Furry Dance Club' });
    await tabTo(page, server);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/server-settings/${DANCE_CLUB.id}/discord$`));
    // The address changes before React renders the chosen server.
    await vi.waitFor(async () => expect(await server.getAttribute('aria-current')).toBe('page'), {
      timeout: 15_000,
    });

    // The Linked Users Role: the arrow keys walk the list, Enter chooses, the preview's Save saves.
    const select = page.getByRole('combobox', { name: 'Linked Users Role' });
    await tabTo(page, select);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('ArrowDown');
      const active = await select.getAttribute('aria-activedescendant');
      if (active && (await page.locator(`[id="${active}"]`).innerText()) === 'Dancer') break;
    }
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }));
    await page.keyboard.press('Enter');
    await page.getByText('Auto assign roles updated successfully.').waitFor();
    const settings = await (await page.request.get(`/api/guilds/${DANCE_CLUB.id}`)).json();
    expect(settings.autoAssignRoles.linkedRoleId).toBe(DANCE_CLUB.roles.Dancer);

    // A dialog opens on Enter, Escape closes it, and focus is back on the button that opened it.
    const setup = page.getByRole('button', { name: 'Setup' });
    await tabTo(page, setup);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(setup)).toBe(true);
  });
});
