import { describe, expect, it } from 'vitest';
import { ADMIN_DISCORD_ID, useBrowser } from './browser';

const browser = useBrowser();
const mainNav = () => browser.page.getByRole('navigation', { name: 'Main' });
const mainNavLinks = () => mainNav().getByRole('link').allTextContents();

const loginAs = (pick: 'admin' | 'member') => browser.signIn(pick);

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

  it("after a logout, offers Discord's account choice instead of signing the same person in again", async () => {
    const { page } = browser;
    const first = await loginAs('member');
    await page.getByRole('link', { name: 'Logout' }).click();
    // Home, signed out: the home page shows, and the header's Logout is gone once the login state is refreshed.
    await page.waitForURL(`${browser.baseUrl}/`);
    await page.getByRole('heading', { name: 'Seamless Linking and Syncing for VRChat' }).waitFor();
    await page.getByRole('link', { name: 'Logout' }).waitFor({ state: 'detached' });
    expect(await page.getByText('You must be logged in to view this page').count()).toBe(0);
    await page.getByRole('banner').getByRole('link', { name: 'Login through Discord' }).click();
    // Without the logout this would come straight back signed in (prompt=none): the consent page shows instead.
    await page.waitForURL(/\/oauth2\/authorize/);
    expect(new URL(page.url()).searchParams.get('prompt')).toBe('consent');
    await page.getByRole('link', { name: 'Switch account' }).click();
    await page.waitForURL(/\/oauth2\/authorize/);
    const other = page
      .locator(`input[name="user_id"]:not([value="${ADMIN_DISCORD_ID}"]):not([aria-label="${first}"])`)
      .first();
    const second = (await other.getAttribute('aria-label')) ?? '';
    await other.check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL(`${browser.baseUrl}/profile`);
    await page.getByText(`@${second}`).first().waitFor();
    expect(second).not.toBe(first);
  });

  it('shows the Admin link, the rank badge and scheduled tasks to an admin', async () => {
    const { page } = browser;
    await loginAs('admin');
    expect(await mainNavLinks()).toEqual(['Home', 'Profile', 'Server Settings', 'VPM Listing', 'Admin']);
    const badge = page.locator('header .mantine-Badge-root', { hasText: 'Admin' });
    expect(await badge.count()).toBe(1);
    // Mantine's filled red in the dark scheme's shade 8 (red.8 = #e03131: white text on it reaches 4.5:1).
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(224, 49, 49)');
    await mainNav().getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Scheduled Tasks' }).waitFor();
    expect(page.url()).toBe(`${browser.baseUrl}/admin`);
  });

  it('goes home when the login callback fails, saying why', async () => {
    await browser.goto('/discord/login/callback?code=bogus&state=bogus');
    await browser.page.waitForURL(`${browser.baseUrl}/?loginError=expired`);
    await browser.page.getByRole('link', { name: 'Login through Discord' }).waitFor();
    await browser.page
      .getByText('The login took too long or was started in another browser. Try again.')
      .waitFor();
  });

  it('says so when a token login link is unknown, and signs nobody in', async () => {
    await browser.goto('/discord_auth?token=not-a-token');
    await browser.page
      .getByText('This login link is not valid: links work once, for 5 minutes.', { exact: false })
      .waitFor();
    expect(await browser.page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
  });

  it('does not log out when /logout is merely opened (a link from anywhere)', async () => {
    const { page } = browser;
    const username = await loginAs('member');
    await browser.goto('/logout');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await browser.goto('/profile');
    await page.getByText(`@${username}`).first().waitFor();
    expect((await page.request.get('/api/user')).status()).toBe(200);
  });
});
