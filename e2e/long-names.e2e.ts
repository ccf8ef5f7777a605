import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { sidewaysOverflow } from './axe';
import { useBrowser } from './browser';
import { control, xsrfHeaders } from './linking';

/**
 * Names as long as the forms and platforms allow (100 characters, one unbroken word: nothing to wrap at) on
 * every page that shows them, at a desktop and a phone width: no page scrolls sideways, and the long name is
 * cut with an ellipsis (its whole text kept in a tooltip or the accessible name) rather than widening the page.
 */
const browser = useBrowser();
const HANGOUT = '1300000000000000001';
const long = (what: string) => `${what}${'x'.repeat(100 - what.length)}`;
const KEY = long('LongApiKeyName');
const ROLE = long('LongDiscordRole');
const WORLD = long('LongWorldName');

/** Whether the page shows that text and every element holding it fits its own box (cut, not overflowing). */
async function shownCut(page: Page, text: string): Promise<{ shown: number; overflowing: number }> {
  return page.evaluate((t) => {
    const holders = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter(
      (el) =>
        Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.includes(t)) &&
        el.getClientRects().length > 0,
    );
    // A table that scrolls within itself on a phone (overflow-x auto) may hold a column past the window's edge:
    // that region scrolls, the page does not. Anything else must end inside the window.
    const inScrollingRegion = (el: HTMLElement) => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true;
      }
      return false;
    };
    const overflowing = holders.filter((el) => {
      const box = el.getBoundingClientRect();
      return box.right > window.innerWidth + 1 && !inScrollingRegion(el);
    });
    return { shown: holders.length, overflowing: overflowing.length };
  }, text);
}

describe('long names', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const undo of cleanups.reverse()) await undo().catch(() => {});
  });

  it('never make a page scroll sideways at 1280 px or 390 px', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    const headers = await xsrfHeaders(page.context());
    const role = (await control('POST', `/discord/guilds/${HANGOUT}/roles`, { name: ROLE })) as {
      id: string;
    };
    cleanups.push(() => control('DELETE', `/discord/guilds/${HANGOUT}/roles/${role.id}`));
    const key = await page.request.post(`/api/guilds/${HANGOUT}/api_keys/create`, {
      headers,
      data: {
        name: KEY,
        permissions: ['ViewWorlds'],
        validUntil: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(key.status()).toBe(200);
    const keyId = ((await key.json()) as { id: string }).id;
    cleanups.push(() => page.request.delete(`/api/guilds/${HANGOUT}/api_keys/${keyId}`, { headers }));
    const worlds = await page.request.put(`/api/guilds/${HANGOUT}/worlds`, {
      headers,
      data: { name: WORLD },
    });
    expect(worlds.status()).toBe(200);
    const world = ((await worlds.json()) as { worlds: { id: string; name: string }[] }).worlds.find(
      (w) => w.name === WORLD,
    )!;
    cleanups.push(async () => {
      await page.request.post(`/api/guilds/${HANGOUT}/worlds/${world.id}`, {
        headers,
        data: { locked: false },
      });
      await page.request.delete(`/api/guilds/${HANGOUT}/worlds/${world.id}`, { headers });
    });

    // The world's name is the value of its name field (which scrolls within itself): the card must fit.
    const checks: { path: string; open?: string; name?: string; article?: string }[] = [
      { path: `/server-settings/${HANGOUT}/discord`, name: undefined },
      { path: `/server-settings/${HANGOUT}/management/api-keys`, name: KEY },
      // The audit entry of the key's creation names it.
      { path: `/server-settings/${HANGOUT}/management/audit-log`, name: KEY },
      { path: `/server-settings/${HANGOUT}/worlds`, article: WORLD },
      { path: '/admin' },
    ];
    const wide: string[] = [];
    const uncut: string[] = [];
    const cspViolations: string[] = [];
    /** Every check at one width, in a tab of its own (both widths at once: each waits on its page's round trips). */
    const checkAt = async (tab: Page, width: number) => {
      await tab.setViewportSize({ width, height: 800 });
      for (const check of checks) {
        await tab.goto(check.path, { waitUntil: 'networkidle' });
        await tab.locator('[aria-label^="Loading"]').first().waitFor({ state: 'detached' });
        if (check.open) {
          await tab.getByRole('button', { name: check.open }).click();
        }
        if (check.article) {
          // The list opens the first world, or those opened before in this tab: open this one by its name
          // in the list unless it is open already (its own buttons carry its name too, so match the toggle).
          const toggle = tab.getByRole('button', {
            name: new RegExp(`^${check.article} (Locked|Unlocked)$`),
          });
          if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
          await tab.getByRole('article', { name: check.article }).waitFor();
        }
        if (check.name) {
          await tab.getByText(check.name).first().waitFor({ state: 'attached' });
          const { shown, overflowing } = await shownCut(tab, check.name);
          expect(shown, `${check.path} shows the name`).toBeGreaterThan(0);
          if (overflowing > 0) {
            uncut.push(`${check.path}${check.open ? ` (${check.open})` : ''} at ${width} px`);
            await tab.screenshot({ path: `/tmp/shots/long-names-${width}-${uncut.length}.png` });
          }
        }
        const over = await sidewaysOverflow(tab);
        if (over > 0)
          wide.push(`${check.path}${check.open ? ` (${check.open})` : ''} at ${width} px: ${over} px`);
      }
    };
    // The phone's tab shares the signed-in context; the first tab's Content-Security-Policy reports are checked
    // by useBrowser, this one's here.
    const phone = await page.context().newPage();
    phone.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    await Promise.all([checkAt(page, 1280), checkAt(phone, 390)]);
    expect(wide, 'pages wider than the window').toEqual([]);
    expect(uncut, 'long names running off the window').toEqual([]);
    expect(cspViolations, 'Content-Security-Policy violations on the phone').toEqual([]);
  });
});
