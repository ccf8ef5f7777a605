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
      await page.getByRole('heading', { name: card, exact: true }).waitFor();
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
    // The header settles once the app knows nobody is signed in (the login link shows): read it then.
    const login = page.getByRole('link', { name: 'Login through Discord' });
    await login.waitFor();
    await expect.poll(mainNavLinks).toEqual(['Home']);
    await expect
      .poll(() =>
        page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Home' })
          .getAttribute('aria-current'),
      )
      .toBe('page');
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
    await page.getByText('Last updated: May 17, 2025').waitFor();
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
    await page.getByText('Last updated: May 17, 2025').waitFor();
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

/** The named colour family of a CSS `rgb(…)` colour: grey when barely saturated, else by hue. */
function colourFamily(css: string): 'grey' | 'red' | 'green' | 'blue' | 'other' {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const saturation = max === min ? 0 : (max - min) / (1 - Math.abs(2 * lightness - 1));
  if (saturation < 0.15) return 'grey';
  const d = max - min;
  const hue = (max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4) * 60;
  if (hue < 20 || hue >= 340) return 'red';
  if (hue >= 90 && hue < 160) return 'green';
  if (hue >= 190 && hue < 250) return 'blue';
  return 'other';
}

describe('toasts', () => {
  const toastTexts = () => browser.page.getByTestId('toast').allInnerTexts();

  /** Computed colours of the toast showing `text`: its accent stripe, icon and bar (if any). */
  const toastColours = (text: string) =>
    browser.page
      .getByTestId('toast')
      .filter({ hasText: text })
      .evaluate((toast) => {
        const bar = toast.querySelector('[role="progressbar"] > div, [aria-hidden="true"] > div');
        return {
          stripe: getComputedStyle(toast).borderLeftColor,
          stripeWidth: getComputedStyle(toast).borderLeftWidth,
          icon: getComputedStyle(toast.querySelector('svg')!).color,
          bar: bar ? getComputedStyle(bar).backgroundColor : null,
        };
      });

  it('colours success green, error red, progress blue and the others grey', async () => {
    const { page } = browser;
    await browser.goto('/');
    await page.evaluate(() => {
      const notify = window.__vrclinkNotify!;
      notify({ message: 'Saved!', type: 'success', persistent: true });
      notify({ message: 'It broke', type: 'error', persistent: true });
      notify({ message: 'Uploading', type: 'progress', persistent: true, progress: 40 });
      notify({ message: 'For your information', type: 'info', persistent: true });
      notify({ message: 'Careful', type: 'warning', persistent: true });
    });
    expect(await toastTexts()).toEqual([
      'Saved!',
      'It broke',
      'Uploading (40%)',
      'For your information',
      'Careful',
    ]);
    const expected = {
      'Saved!': 'green',
      'It broke': 'red',
      Uploading: 'blue',
      'For your information': 'grey',
      Careful: 'grey',
    } as const;
    for (const [text, family] of Object.entries(expected)) {
      const colours = await toastColours(text);
      expect(colourFamily(colours.stripe), `${text}: stripe ${colours.stripe}`).toBe(family);
      expect(parseFloat(colours.stripeWidth), text).toBeGreaterThanOrEqual(3);
      expect(colourFamily(colours.icon), `${text}: icon ${colours.icon}`).toBe(family);
    }
    // Distinct toasts of a family share the same colour; the families differ from each other.
    const stripes = await Promise.all(Object.keys(expected).map(async (t) => (await toastColours(t)).stripe));
    expect(new Set(stripes).size).toBe(4);
    expect((await toastColours('Uploading')).bar).toBe((await toastColours('Uploading')).stripe);
  });

  it('shows a progress toast as a blue bar with its percentage, updated in place', async () => {
    const { page } = browser;
    await browser.goto('/');
    const progressToast = (progress: number) => ({
      id: 'upload',
      message: 'Uploading',
      type: 'progress',
      persistent: true,
      progress,
    });
    await page.evaluate((toast) => window.__vrclinkNotify?.(toast), progressToast(40));
    const toast = page.getByTestId('toast');
    const bar = toast.getByRole('progressbar');
    const filled = () =>
      bar.evaluate((track) => track.firstElementChild!.getBoundingClientRect().width / track.clientWidth);
    expect(await toast.innerText()).toBe('Uploading (40%)');
    expect(await bar.getAttribute('aria-valuenow')).toBe('40');
    await vi.waitFor(async () => expect(await filled()).toBeCloseTo(0.4, 2), { timeout: 15_000 });
    expect(colourFamily((await toastColours('Uploading')).bar!)).toBe('blue');

    await page.evaluate((t) => window.__vrclinkNotify?.(t), progressToast(75));
    expect(await toastTexts()).toEqual(['Uploading (75%)']);
    expect(await bar.getAttribute('aria-valuenow')).toBe('75');
    await vi.waitFor(async () => expect(await filled()).toBeCloseTo(0.75, 2), { timeout: 15_000 });
  });

  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ])('stacks the toasts at the bottom right of the viewport (%s), also when scrolled', async (_, size) => {
    const { page } = browser;
    await page.setViewportSize(size);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await browser.goto('/');
    await page.evaluate(() => {
      window.__vrclinkNotify?.({ message: 'First', type: 'info', persistent: true });
      window.__vrclinkNotify?.({ message: 'Second', type: 'success', persistent: true });
    });
    const area = page.getByRole('status', { name: 'Notifications' });
    const check = async () => {
      const box = (await area.boundingBox())!;
      expect(box.width).toBeGreaterThan(100);
      // Close to the right and bottom edges (Mantine's md spacing is 16 px), in the right/bottom half.
      expect(size.width - (box.x + box.width)).toBeGreaterThanOrEqual(0);
      expect(size.width - (box.x + box.width)).toBeLessThanOrEqual(24);
      expect(size.height - (box.y + box.height)).toBeGreaterThanOrEqual(0);
      expect(size.height - (box.y + box.height)).toBeLessThanOrEqual(24);
      // It hugs the right edge: on a wide screen it sits in the right half; on a phone it spans the width.
      expect(box.x).toBeGreaterThanOrEqual(size.width - (box.x + box.width));
      if (size.width >= 720) expect(box.x).toBeGreaterThan(size.width / 2);
      expect(box.y).toBeGreaterThan(size.height / 2);
      // Newest at the bottom: the second toast sits below the first, both inside the area.
      const first = (await page.getByTestId('toast').filter({ hasText: 'First' }).boundingBox())!;
      const second = (await page.getByTestId('toast').filter({ hasText: 'Second' }).boundingBox())!;
      expect(second.y).toBeGreaterThanOrEqual(first.y + first.height);
      expect(second.y + second.height).toBeCloseTo(box.y + box.height, 0);
    };
    await check();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await check();
  });

  it('removes a toast after about 5 seconds but keeps a persistent one', async () => {
    const { page } = browser;
    await browser.goto('/');
    // The page's clock, paused, not the machine's: on a loaded machine a wall-clock sleep of 3.5 s may end after
    // 5, and an installed clock that is not paused flows with the machine's time (a loaded run saw the toast gone
    // at "4.9 s").
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.evaluate(() => {
      window.__vrclinkNotify?.({ message: 'Saved!', type: 'success' });
      window.__vrclinkNotify?.({ message: 'Sticky error', type: 'error', persistent: true });
    });
    expect(await page.getByTestId('toast').first().getAttribute('data-type')).toBe('success');
    await page.clock.runFor(4900);
    expect(await toastTexts()).toEqual(['Saved!', 'Sticky error']);
    await page.clock.runFor(200);
    // Time flows again for the way out (its transition) and the close.
    await page.clock.resume();
    await expect.poll(toastTexts).toEqual(['Sticky error']);
    await page.getByTestId('toast').getByRole('button', { name: 'Close' }).click();
    await expect.poll(toastTexts).toEqual([]);
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
