import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';

/** How every journey starts Chromium: headless, quiet, in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface BrowserHandle {
  /** The page of the current test, in a fresh context. */
  readonly page: Page;
  readonly baseUrl: string;
  /** Opens a path of the app and waits until the network is idle. */
  goto(path: string): Promise<void>;
  /**
   * Signs in through the simulator's Discord consent page: as the seeded user with that id, or as the
   * admin / the first other member. Answers the username once the profile page shows it.
   */
  signIn(who: 'admin' | 'member' | { id: string }): Promise<string>;
}

/** The seeded simulator user who is a platform admin in demo mode. */
export const ADMIN_DISCORD_ID = '1200000000000000001';

/**
 * The radio of that Discord user on the simulator's consent page, which lists at most 50 users: someone
 * not among them is found through the page's search (by id), as a person would.
 */
export async function findOnConsentPage(page: Page, discordId: string): Promise<Locator> {
  const radio = page.locator(`input[name="user_id"][value="${discordId}"]`);
  if ((await radio.count()) === 0) await page.getByRole('searchbox').fill(discordId);
  await radio.waitFor({ state: 'attached' });
  return radio;
}

/** One Chromium per test file, a fresh context (cookies, storage) per test. */
export function useBrowser(viewport = { width: 1280, height: 800 }): BrowserHandle {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const baseUrl = inject('baseUrl');

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  let cspViolations: string[] = [];
  beforeEach(async () => {
    context = await browser.newContext({ baseURL: baseUrl, viewport });
    page = await context.newPage();
    cspViolations = [];
    // Chromium reports what the Content-Security-Policy blocked on the console; no page may trip it.
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  });
  afterEach(async () => {
    await context?.close();
    expect(cspViolations, 'Content-Security-Policy violations').toEqual([]);
  });

  return {
    get page() {
      return page;
    },
    baseUrl,
    async goto(path: string) {
      await page.goto(path, { waitUntil: 'networkidle' });
    },
    async signIn(who) {
      await this.goto('/');
      // On a phone the login link sits in the navigation menu. On a loaded machine the header may render a
      // moment after the network went quiet: wait for the one or the other before looking.
      const menu = page.getByRole('button', { name: 'Open navigation' });
      await menu
        .or(page.getByRole('link', { name: 'Login through Discord' }))
        .first()
        .waitFor();
      const menuShown = await menu.isVisible();
      if (menuShown) await menu.click();
      await page.getByRole('link', { name: 'Login through Discord' }).click();
      await page.waitForURL(/\/oauth2\/authorize/);
      const user =
        who === 'member'
          ? page.locator(`input[name="user_id"]:not([value="${ADMIN_DISCORD_ID}"])`).first()
          : await findOnConsentPage(page, who === 'admin' ? ADMIN_DISCORD_ID : who.id);
      const username = (await user.getAttribute('aria-label')) ?? '';
      await user.check();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.waitForURL(`${baseUrl}/profile`);
      // The address changes as the login page navigates; React renders the profile once its lazily loaded page
      // has come (a transition: until then the callback page stays, and no link is marked current).
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
      // On a phone the name sits in the closed navigation menu: there, but not visible.
      await page
        .getByText(`@${username}`)
        .first()
        .waitFor({ state: menuShown ? 'attached' : 'visible' });
      return username;
    },
  };
}
