import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cutOff, sidewaysOverflow } from './axe';
import { ADMIN_DISCORD_ID } from './browser';
import { type FocusStop, tabThrough } from './focus';
import { signedInContext } from './linking';

/**
 * For people, beyond axe (WCAG 2.2 AA): while a keyboard user tabs forwards and back through the pages the
 * platform admin (owner of the Hangout) works on, no focused control is ever under the fixed header (2.4.11)
 * and every focus indicator is at least 2 px wide with 3:1 against the colours next to it (1.4.11, computed
 * from the browser's styles); on a desktop (1280 × 800) and at 400 % zoom (320 × 256 CSS px). At 320 px
 * nothing scrolls sideways or runs off the window (1.4.10), Admins & Permissions and Add Admin included.
 * Per-row controls have names of their own (Members' More, a world's controls).
 */
const baseUrl = inject('baseUrl');
const HANGOUT = '1300000000000000001';
const PAGES = [
  '/profile',
  `/server-settings/${HANGOUT}/discord`,
  `/server-settings/${HANGOUT}/members`,
  `/server-settings/${HANGOUT}/management`,
  `/server-settings/${HANGOUT}/worlds`,
  '/admin',
];
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 320, height: 256 },
];
/** Far more than any of these pages has: the pass ends when focus leaves the page. */
const MAX_STOPS = 160;

let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
  const starter = await (await browser.newContext({ baseURL: baseUrl })).newPage();
  context = await signedInContext(starter, baseUrl, ADMIN_DISCORD_ID);
});
afterAll(async () => {
  await browser?.close();
});

async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.locator('[aria-label^="Loading"]').first().waitFor({ state: 'detached' });
  return page;
}

const describeStop = (s: FocusStop) => `${s.control} (top ${s.top}, header ends at ${s.headerBottom})`;

describe('focus while tabbing', () => {
  // Both widths at once, each on a page of its own: a pass waits on the browser's round trips (a key press and a
  // measure per stop), not on the CPU, so the two together took 26 s of this file's 38.
  it.concurrent.each(VIEWPORTS)(
    'at $width × $height: never under the header, every ring 2 px at 3:1 or more, forwards and back',
    async (viewport) => {
      const hidden: string[] = [];
      const weak = new Set<string>();
      let stops = 0;
      for (const path of PAGES) {
        const page = await open(path, viewport);
        try {
          // Forwards from the top to past the last control, then back from there (Shift+Tab is what once left
          // controls under the header: the browser scrolled them just into the window, not below the header).
          const all = [
            ...(await tabThrough(page, 'Tab', MAX_STOPS)),
            ...(await tabThrough(page, 'Shift+Tab', MAX_STOPS)),
          ];
          stops += all.length;
          for (const stop of all) {
            if (stop.hidden || stop.partlyHidden) hidden.push(`${path}: ${describeStop(stop)}`);
            if (!stop.ring || stop.ring.width < 2 || stop.ring.contrast < 3)
              weak.add(`${path}: ${stop.control} ${JSON.stringify(stop.ring)}`);
          }
        } finally {
          await page.close();
        }
      }
      expect(stops, 'focus stops seen').toBeGreaterThan(100);
      expect(hidden, 'focused controls under the fixed header').toEqual([]);
      expect([...weak], 'focus indicators thinner than 2 px or under 3:1').toEqual([]);
    },
    600_000,
  );
});

describe('reflow at 320 px', () => {
  it('Admins & Permissions and Add Admin over it: nothing scrolls sideways or runs off the window', async () => {
    const page = await open(`/server-settings/${HANGOUT}/management/permissions`, {
      width: 320,
      height: 640,
    });
    try {
      const admins = page.getByRole('list', { name: 'Admins' });
      await admins.getByRole('listitem').first().waitFor();
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await cutOff(page)).toEqual([]);
      await page.getByRole('button', { name: 'Add Admin' }).click();
      await page
        .getByRole('dialog', { name: 'Add Admin' })
        .getByRole('checkbox', { name: 'ViewGuild' })
        .waitFor();
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await cutOff(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the Members filters fit one above the other', async () => {
    const page = await open(`/server-settings/${HANGOUT}/members`, { width: 320, height: 640 });
    try {
      await page.getByRole('radio', { name: 'Unverified' }).waitFor({ state: 'attached' });
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await cutOff(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('names in context', () => {
  it("every button of the Members and Worlds tabs has a name of its own (More about <member>, a world's controls)", async () => {
    const duplicates: string[] = [];
    for (const tab of ['members', 'worlds']) {
      const page = await open(`/server-settings/${HANGOUT}/${tab}`, { width: 1280, height: 800 });
      try {
        // The members come from the API after the page shell: wait for the list, not a guess.
        if (tab === 'members')
          await page
            .getByRole('button', { name: /^More about \S/ })
            .first()
            .waitFor();
        // Only the first world is open: open the others too, so every world's controls are compared.
        if (tab === 'worlds') {
          await page.getByRole('article', { name: 'Hangout Lobby' }).waitFor();
          for (const closed of await page.locator('[data-world-toggle][aria-expanded="false"]').all())
            await closed.click();
        }
        const snapshot = await page.getByRole('main').ariaSnapshot();
        const names = [...snapshot.matchAll(/- (?:button|switch) "([^"]*)"/g)].map((m) => m[1]);
        expect(names.length).toBeGreaterThan(5);
        const seen = new Set<string>();
        for (const name of names) {
          if (seen.has(name)) duplicates.push(`${tab}: ${name}`);
          seen.add(name);
        }
        if (tab === 'members') expect(names.some((n) => /^More about \S/.test(n))).toBe(true);
        else expect(names).toContain('Preview Hangout Lobby');
      } finally {
        await page.close();
      }
    }
    expect(duplicates).toEqual([]);
  });
});

describe('reduced motion', () => {
  it('dialogs neither fade nor slide when the system asks for reduced motion', async () => {
    const page = await open(`/server-settings/${HANGOUT}/management/permissions`, {
      width: 1280,
      height: 800,
    });
    const durations = () =>
      page.getByRole('dialog').evaluate((dialog) => {
        const found: string[] = [];
        for (let el: Element | null = dialog; el && el !== document.body; el = el.parentElement)
          found.push(getComputedStyle(el).transitionDuration);
        const overlay = document.querySelector('.mantine-Modal-overlay');
        if (overlay) found.push(getComputedStyle(overlay).transitionDuration);
        return found;
      });
    try {
      // As it is by default: the dialog and its overlay come in with a transition.
      await page.getByRole('button', { name: 'Add Admin' }).click();
      expect((await durations()).some((d) => d !== '0s')).toBe(true);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.getByRole('button', { name: 'Add Admin' }).click();
      expect(await durations()).toEqual(expect.arrayContaining(['0s']));
      expect((await durations()).filter((d) => d !== '0s')).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
