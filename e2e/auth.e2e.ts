import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

const browser = useBrowser();
/** The seeded simulator user who is a platform admin in demo mode. */
const ADMIN_DISCORD_ID = '1200000000000000001';

const mainNav = () => browser.page.getByRole('navigation', { name: 'Main' });
const mainNavLinks = () => mainNav().getByRole('link').allTextContents();

/** Goes through the simulator's Discord consent page as the chosen user; returns the username. */
async function loginAs(pick: 'admin' | 'member'): Promise<string> {
  const { page } = browser;
  await browser.goto('/');
  await page.getByRole('link', { name: 'Login through Discord' }).click();
  await page.waitForURL(/\/oauth2\/authorize/);
  const selector =
    pick === 'admin'
      ? `input[name="user_id"][value="${ADMIN_DISCORD_ID}"]`
      : `input[name="user_id"]:not([value="${ADMIN_DISCORD_ID}"])`;
  const user = page.locator(selector).first();
  const username = (await user.getAttribute('aria-label')) ?? '';
  await user.check();
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL(`${browser.baseUrl}/profile`);
  await page.getByText(`@${username}`).waitFor();
  return username;
}

describe('login through the Discord simulator', () => {
  it('signs a member in, shows the logged-in navigation, and logs out', async () => {
    const { page } = browser;
    await loginAs('member');
    expect(await mainNavLinks()).toEqual(['Home', 'Profile', 'Server Settings', 'VPM Listing']);
    expect(await mainNav().getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByText('You must be logged in to view this page').count()).toBe(0);

    await browser.goto('/admin');
    await page.waitForURL(`${browser.baseUrl}/`);

    await page.getByRole('link', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Login through Discord' }).waitFor();
    expect(page.url()).toBe(`${browser.baseUrl}/`);
    expect(await mainNavLinks()).toEqual(['Home']);
    await browser.goto('/profile');
    await page.getByText('You must be logged in to view this page').waitFor();
  });

  it('shows the Admin link, the rank badge and scheduled tasks to an admin', async () => {
    const { page } = browser;
    await loginAs('admin');
    expect(await mainNavLinks()).toEqual(['Home', 'Profile', 'Server Settings', 'VPM Listing', 'Admin']);
    const badge = page.locator('header .mantine-Badge-root', { hasText: 'Admin' });
    expect(await badge.count()).toBe(1);
    // Mantine's filled red (red.6 = #fa5252).
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(250, 82, 82)');
    await mainNav().getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Scheduled Tasks' }).waitFor();
    expect(page.url()).toBe(`${browser.baseUrl}/admin`);
  });

  it('goes home when the login callback fails', async () => {
    await browser.goto('/discord/login/callback?code=bogus&state=bogus');
    await browser.page.waitForURL(`${browser.baseUrl}/`);
    await browser.page.getByRole('link', { name: 'Login through Discord' }).waitFor();
  });

  it('goes home when the token login fails', async () => {
    await browser.goto('/discord_auth?token=not-a-token');
    await browser.page.waitForURL(`${browser.baseUrl}/`);
  });
});
