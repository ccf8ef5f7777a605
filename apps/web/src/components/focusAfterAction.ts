/** The page's main heading, made focusable for the moment (a heading is not a Tab stop). */
function mainHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('#main-content h1, main h1, h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}

const focusLost = () => !document.activeElement || document.activeElement === document.body;

/**
 * After a confirmed action: focus goes back to the control that asked for it, and if that control goes
 * away (the deleted row took its button with it, now or when the list refetches), to the fallback the
 * caller gives (the next row) or the page's main heading, so a keyboard user is never left at the start of the page. The caller's toast (a polite live
 * region) says what happened. Stops watching as soon as focus goes anywhere else. Returns the stop.
 */
export function keepFocusAfterAction(
  opener: HTMLElement | null,
  /** Where focus goes instead of the main heading when the opener went away (e.g. the next row). */
  fallback?: () => HTMLElement | null,
): () => void {
  const settle = () => {
    if (!focusLost()) return;
    const target = opener?.isConnected ? opener : (fallback?.() ?? mainHeading());
    target?.focus({ preventScroll: false });
  };
  settle();
  // Focus may still sit in the closing dialog (its transition) when the first changes come: that is not the
  // person moving on, so only a focus arriving outside the dialog and away from the opener ends the watch.
  const observer = new MutationObserver(() => {
    if (focusLost()) settle();
  });
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (target === opener) return;
    if (target instanceof Element && target.closest('[role="dialog"]')) return;
    stop();
  };
  function stop() {
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  document.addEventListener('focusin', onFocusIn);
  return stop;
}
