import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * A server admin in demo mode: finds members and their links, and gives another member access to the
 * server's worlds through Admins & Permissions; that member then sees the server (and only what was granted).
 */
const browser = useBrowser();
const GLITCHWOLF = '1200000000000000008'; // a Hangout member without Discord admin rights

describe('server settings', () => {
  it('asks to choose a server first, then searches members and shows their link state and roles', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto('/server-settings');
    await page.getByText('No Server Selected').waitFor();
    await expect.poll(() => page.getByRole('tab', { name: 'Members' }).isDisabled()).toBe(true);
    await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
    await page.waitForURL(/\/server-settings\/\d+\/discord$/);
    await page.getByRole('tab', { name: 'Members' }).click();
    await page.getByText('Discord Member Search').waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill('akira');
    const row = page.getByRole('row', { name: 'akira.night', exact: true });
    await row.waitFor();
    await row.getByRole('button', { name: 'More about akira.night' }).click();
    // Whether akira.night still holds the seeded link depends on the accounts journey (it moves it).
    const more = page.getByRole('region', { name: 'Link details of akira.night' });
    await more.getByText('VRC Name').waitFor();
    await more.getByText('Last Link Change').waitFor();
    await more.getByText('Age Verified').waitFor();
    await row.getByRole('button', { name: 'Less about akira.night' }).click();
    await more.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Details of akira.night' }).click();
    const details = page.getByRole('dialog', { name: 'Member Details' });
    await details.getByText('Moderator').waitFor();
    await details.getByRole('button').first().click();
  });

  it('shows a member without permissions no server', async () => {
    await browser.signIn({ id: GLITCHWOLF });
    await browser.goto('/server-settings');
    await browser.page.getByText(/You do not manage any server/).waitFor();
  });

  it('lets the admin grant that member ViewWorlds through Admins & Permissions', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto('/server-settings');
    await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
    await page.getByRole('tab', { name: 'Management' }).click();
    await page
      .getByRole('navigation', { name: 'Management sections' })
      .getByRole('link', { name: 'Admins & Permissions' })
      .click();
    await page.getByRole('button', { name: 'Add Admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Admin' });
    await expect.poll(() => dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'User' }).fill('glitch');
    await dialog.getByRole('radio', { name: `glitchwolf (${GLITCHWOLF})` }).check();
    await dialog.getByRole('checkbox', { name: 'ViewWorlds' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('row', { name: /glitchwolf/ })
      .getByText('ViewWorlds')
      .waitFor();
  });

  it('then shows that member the server, without the permissions view', async () => {
    const { page } = browser;
    await browser.signIn({ id: GLITCHWOLF });
    await browser.goto('/server-settings');
    await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
    await page.getByRole('tab', { name: 'Management' }).click();
    await page.getByText(/^Only administrators can configure logging/).waitFor();
    expect(await page.getByRole('navigation', { name: 'Management sections' }).count()).toBe(0);
  });
});
