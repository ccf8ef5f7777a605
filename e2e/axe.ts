import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core's own build (the npm package), evaluated in the page through the DevTools protocol: an inline
// <script> would trip the app's Content-Security-Policy.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0–2.2 A and AA rules; best practices (landmarks, one banner) too. */
const RULE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** One failed rule on one page, short enough to read in a test failure. */
export interface Finding {
  where: string;
  rule: string;
  impact: string;
  targets: string[];
}

/**
 * Waits until CSS transitions and animations (a dialog fading in, a drawer sliding) have finished and every open
 * dialog is fully opaque, three frames in a row. Mantine starts a dialog's fade a frame or a timer after it mounts:
 * checked once, in that gap nothing runs yet, and on a loaded machine axe then measured the half-faded text's
 * contrast (a CI run: 2.87:1).
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { settledFrames: number }).settledFrames = 0;
  });
  await page.waitForFunction(
    () => {
      const still =
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity) &&
        Array.from(document.querySelectorAll('[role="dialog"]')).every((dialog) => {
          if (dialog.getClientRects().length === 0) return true; // not shown
          for (let el: Element | null = dialog; el; el = el.parentElement) {
            if (getComputedStyle(el).opacity !== '1') return false;
          }
          return true;
        });
      const w = window as unknown as { settledFrames: number };
      w.settledFrames = still ? w.settledFrames + 1 : 0;
      return w.settledFrames >= 3;
    },
    undefined,
    { polling: 'raf' },
  );
}

/** Runs axe-core on the page as it is now; answers its critical and serious findings. */
export async function axeFindings(page: Page, where: string): Promise<Finding[]> {
  await settled(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    // Only the violations are read: axe then skips collecting the passes (a third of its time on a big page).
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`),
    }));
  }, RULE_TAGS);
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({ where, ...v }));
}

/** The page's width beyond the window's, in pixels (0 when nothing scrolls sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/**
 * Text that runs off the window's right edge without the page scrolling (clipped by a box that hides its
 * overflow): each as "tag: text". Regions that scroll within themselves (a wide table on a phone) do not count.
 */
export function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const scrollsWithin = (el: HTMLElement) => {
      for (let a = el.parentElement; a; a = a.parentElement)
        if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true;
      return false;
    };
    return Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter(
        (el) =>
          Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()) &&
          el.getClientRects().length > 0 &&
          getComputedStyle(el).visibility !== 'hidden' &&
          el.getBoundingClientRect().right > window.innerWidth + 1 &&
          !scrollsWithin(el),
      )
      .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent?.trim().slice(0, 40)}`);
  });
}
