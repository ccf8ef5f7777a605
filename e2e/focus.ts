import type { Page } from 'playwright-core';

/** What the page shows of the control that has focus now: where it is, and how its focus is drawn. */
export interface FocusStop {
  /** The control, short: tag, role and accessible name as far as the DOM tells. */
  control: string;
  /** Its box and the fixed header's bottom edge, in CSS px from the top of the window. */
  top: number;
  bottom: number;
  headerBottom: number;
  /** Under a fixed header that covers it wholly (WCAG 2.4.11) or in part. */
  hidden: boolean;
  partlyHidden: boolean;
  /** The focus indicator: its colour, its width in px, and its lowest contrast against the colours next to it. */
  ring: { color: string; width: number; contrast: number } | null;
}

/**
 * The focused control, measured in the page (null when focus is on the page itself). The indicator is the
 * outline of the control, or of what draws a visually hidden input (a switch's track, a chip's label); its
 * contrast is taken against the colour behind it (the parent's, translucent layers composited) and, when the
 * outline sits on the control's edge, against the control's own background too.
 */
export function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return null;
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const n = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1) as Rgba;
    };
    /** The opaque colour behind an element: its and its ancestors' backgrounds, composited. */
    const behind = (start: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let node = start; node; node = node.parentElement) {
        const bg = parse(getComputedStyle(node).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let colour: Rgba = [36, 36, 36, 1]; // the page's own colour (dark-7) below everything
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    const luminance = ([r, g, b]: Rgba) => {
      const lin = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const contrast = (a: Rgba, b: Rgba) => {
      const [x, y] = [luminance(a), luminance(b)];
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    };

    // A switch's or chip's input is invisible; what shows its focus is the element drawn for it. A field inside
    // a box (a multi-select's input among its pills) has its ring drawn on the box, at most a few levels up.
    const hiddenInput = el instanceof HTMLInputElement && Number(getComputedStyle(el).opacity) === 0;
    const outlined = (node: HTMLElement) => getComputedStyle(node).outlineStyle !== 'none';
    let drawn = (hiddenInput && (el.nextElementSibling as HTMLElement | null)) || el;
    for (let up = drawn.parentElement, i = 0; !outlined(drawn) && up && i < 3; up = up.parentElement, i++)
      if (outlined(up)) drawn = up;
    const style = getComputedStyle(drawn);
    const width = style.outlineStyle === 'none' ? 0 : Number.parseFloat(style.outlineWidth);
    let ring: FocusStop['ring'] = null;
    if (width > 0) {
      const colour = parse(style.outlineColor);
      const next = [behind(drawn.parentElement)];
      if (Number.parseFloat(style.outlineOffset) <= 0) next.push(behind(drawn));
      const solid = over(colour, next[0]);
      ring = {
        color: style.outlineColor,
        width,
        contrast: Math.round(Math.min(...next.map((c) => contrast(solid, c))) * 100) / 100,
      };
    }

    // Where the control itself is (a field's box may be taller than the window; the browser shows the field).
    const box = (hiddenInput ? (el.nextElementSibling ?? el) : el).getBoundingClientRect();
    const header = document.querySelector('header');
    const fixed = header && ['fixed', 'sticky'].includes(getComputedStyle(header).position);
    // Inside a dialog the header is behind the overlay, and the header's own links are on it: it covers neither.
    // So is the skip link, fixed above it.
    const beside =
      !!el.closest('[role="dialog"]') || !!header?.contains(el) || getComputedStyle(el).position === 'fixed';
    const headerBottom = fixed && !beside ? header.getBoundingClientRect().bottom : 0;
    const name =
      el.getAttribute('aria-label') ||
      (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) ||
      el.textContent ||
      '';
    return {
      control: `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${name.trim().slice(0, 60)}"`,
      top: Math.round(box.top),
      bottom: Math.round(box.bottom),
      headerBottom: Math.round(headerBottom),
      hidden: headerBottom > 0 && box.bottom <= headerBottom,
      partlyHidden: headerBottom > 0 && box.top < headerBottom - 0.5,
      ring,
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until focus leaves the page or `max` stops were seen; answers each stop as it
 * was measured right after its key press (once the browser has scrolled it into view).
 */
export async function tabThrough(page: Page, key: 'Tab' | 'Shift+Tab', max: number): Promise<FocusStop[]> {
  const stops: FocusStop[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const stop = await focusStop(page);
    if (!stop) break;
    stops.push(stop);
  }
  return stops;
}
