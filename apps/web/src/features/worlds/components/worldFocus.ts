/** A world's open/close button (Mantine sets its id, which labels its panel). */
export const worldToggle = (worldId: string) =>
  [...document.querySelectorAll<HTMLElement>('[data-world-toggle]')].find(
    (el) => el.dataset.worldToggle === worldId,
  ) ?? null;

/** The Worlds heading, focusable for the moment (where focus goes when no world is left). */
export const WORLDS_HEADING_ID = 'worlds-heading';

/**
 * After a world is deleted its button goes with it: focus goes to the next world's name, else the previous
 * one's, else Create new, else the Worlds heading. `ids` is the list as it was before the deletion.
 */
export function focusAfterDelete(ids: string[], deletedId: string): HTMLElement | null {
  const at = ids.indexOf(deletedId);
  const candidates = [...ids.slice(at + 1), ...ids.slice(0, Math.max(at, 0)).reverse()];
  for (const id of candidates) {
    const toggle = worldToggle(id);
    if (toggle) return toggle;
  }
  const create = document.querySelector<HTMLElement>('[data-create-world]');
  if (create) return create;
  const heading = document.getElementById(WORLDS_HEADING_ID);
  heading?.setAttribute('tabindex', '-1');
  return heading;
}

/**
 * Focus on an element once React has drawn it (a created world's name, in a panel that is opening): tried
 * on each animation frame for a while, since the panel turns visible a frame or two after the state changes.
 */
export function focusWhenShown(find: () => HTMLElement | null | undefined, frames = 30) {
  requestAnimationFrame(() => {
    const el = find();
    el?.focus();
    if ((!el || document.activeElement !== el) && frames > 0) focusWhenShown(find, frames - 1);
  });
}
