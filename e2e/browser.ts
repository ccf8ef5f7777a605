import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

const CHROMIUM_ARGS = [
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
  beforeEach(async () => {
    context = await browser.newContext({ baseURL: baseUrl, viewport });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });

  return {
    get page() {
      return page;
    },
    baseUrl,
    async goto(path: string) {
      await page.goto(path, { waitUntil: 'networkidle' });
    },
  };
}
