import { mkdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { useBrowser } from './browser';

const browser = useBrowser();

async function publicConfig(): Promise<{ supportUrl: string; inviteUrl: string; contactEmail: string }> {
  const response = await fetch(`${browser.baseUrl}/api/config`);
  return response.json();
}

const mainNavLinks = () =>
  browser.page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();

describe('home page', () => {
  it('shows the tagline, claims, feature cards and benefits', async () => {
    const { page } = browser;
    await browser.goto('/');
    await page.getByRole('heading', { name: 'Seamless Linking and Syncing for VRChat' }).waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    for (const expected of [
      '1100+',
      '45K+',
      'every 1 minute from the website and every 10-15 minutes from a static-pages host',
      'permanent and temporary roles and auto-invites',
      'link and verification status',
    ]) {
      expect(text).toContain(expected);
    }
    for (const card of [
      'World Management',
      'Group Synchronization',
      'Automation & Verification',
      'Advanced API Access',
    ]) {
      expect(await page.getByRole('heading', { name: card, exact: true }).isVisible()).toBe(true);
    }
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/home.png', fullPage: true });
  });

  it('links to the bot invite, the support server and the legal pages', async () => {
    const { page } = browser;
    const config = await publicConfig();
    await browser.goto('/');
    const invite = await page.getByRole('link', { name: 'Invite to Server' }).getAttribute('href');
    expect(invite).toBe(config.inviteUrl);
    expect(invite).toMatch(/scope=bot(\+|%20)applications\.commands/);
    expect(await page.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe(config.supportUrl);
    const footer = page.locator('footer');
    expect(await footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/privacy-policy',
    );
    expect(await footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/tos');
  });
});

describe('navigation when logged out', () => {
  it('shows only Home, highlighted, and the login button', async () => {
    const { page } = browser;
    await browser.goto('/');
    expect(await mainNavLinks()).toEqual(['Home']);
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Home' })
        .getAttribute('aria-current'),
    ).toBe('page');
    const login = page.getByRole('link', { name: 'Login through Discord' });
    expect(await login.getAttribute('href')).toBe('/discord/login');
    expect(await page.getByText('Logout').count()).toBe(0);
  });

  it('opens a menu with the same links on a phone', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.goto('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Login through Discord' }).waitFor();
    expect(await mainNavLinks()).toEqual(['Home']);
  });

  it.each(['/profile', '/server-settings', '/sdk-oauth'])('asks to log in on %s', async (path) => {
    await browser.goto(path);
    await browser.page.getByText('You must be logged in to view this page').waitFor();
  });

  it('sends /admin to the home page', async () => {
    const { page } = browser;
    await browser.goto('/admin');
    await page.waitForURL(`${browser.baseUrl}/`);
    await page.getByRole('heading', { name: 'Seamless Linking and Syncing for VRChat' }).waitFor();
  });

  it('shows a not-found page for unknown paths', async () => {
    await browser.goto('/this/does/not/exist');
    await browser.page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});

describe('legal pages', () => {
  const h2s = () => browser.page.getByRole('heading', { level: 2 }).allTextContents();

  it('shows the Terms of Service sections in order', async () => {
    const { page } = browser;
    const config = await publicConfig();
    await browser.goto('/tos');
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    expect(await page.getByText('Last updated: May 17, 2025').isVisible()).toBe(true);
    expect(await h2s()).toEqual([
      'Acceptance',
      'Use of the Service',
      'Poster Management',
      'Intellectual Property',
      'Modifications',
      'Disclaimer and Limitation of Liability',
      'Termination',
      'Changes',
      'Contact',
    ]);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('at least 13 years old');
    expect(text).toContain('at least 16 years old to use it as a world creator');
    expect(await page.getByRole('link', { name: config.contactEmail }).getAttribute('href')).toBe(
      `mailto:${config.contactEmail}`,
    );
  });

  it('shows the Privacy Policy with its retention periods', async () => {
    const { page } = browser;
    await browser.goto('/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    expect(await page.getByText('Last updated: May 17, 2025').isVisible()).toBe(true);
    expect(await h2s()).toHaveLength(10);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const expected of [
      'up to 72 hours or until you log out',
      'API logs are kept for one month',
      'while your account is active',
      'until you request their deletion',
      'session cookies only',
    ]) {
      expect(text).toContain(expected);
    }
  });
});

describe('toasts', () => {
  const toastTexts = () => browser.page.getByTestId('toast').allInnerTexts();

  it('removes a toast after about 5 seconds but keeps a persistent one', async () => {
    const { page } = browser;
    await browser.goto('/');
    await page.evaluate(() => {
      window.__vrclinkNotify?.({ message: 'Saved!', type: 'success' });
      window.__vrclinkNotify?.({ message: 'Sticky error', type: 'error', persistent: true });
    });
    expect(await page.getByTestId('toast').first().getAttribute('data-type')).toBe('success');
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await toastTexts()).toEqual(['Saved!', 'Sticky error']);
    await vi.waitFor(async () => expect(await toastTexts()).toEqual(['Sticky error']), {
      timeout: 4000,
      interval: 200,
    });
    await page.getByTestId('toast').getByRole('button', { name: 'Close' }).click();
    expect(await toastTexts()).toEqual([]);
  });

  it('shows only the newest five', async () => {
    const { page } = browser;
    await browser.goto('/');
    await page.evaluate(() => {
      for (let i = 1; i <= 7; i++)
        window.__vrclinkNotify?.({ message: `Toast ${i}`, type: 'info', persistent: true });
    });
    expect(await toastTexts()).toEqual(['Toast 3', 'Toast 4', 'Toast 5', 'Toast 6', 'Toast 7']);
  });
});
