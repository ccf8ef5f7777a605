import { useEffect } from 'react';

const DIALOG = '[role="dialog"]';

/**
 * Gives focus back to what had it before a dialog opened, once the last dialog has closed. Mantine does
 * this only for a dialog that stays mounted and whose `opened` turns false; most of ours are mounted
 * when opened and unmounted when closed (and the phone menu's first opening mounts it), so focus fell to
 * the page's start and a keyboard user lost their place.
 */
export function useDialogFocusReturn() {
  useEffect(() => {
    let lastOutside: HTMLElement | null = null;
    let dialogShown = false;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest(DIALOG)) lastOutside = target;
    };
    const observer = new MutationObserver(() => {
      const shown = document.querySelector(DIALOG) !== null;
      const closed = dialogShown && !shown;
      dialogShown = shown;
      // Only when focus went nowhere (it sat in the dialog that is gone); never steal it from where it went.
      const focusLost = !document.activeElement || document.activeElement === document.body;
      if (closed && focusLost && lastOutside?.isConnected) lastOutside.focus({ preventScroll: true });
    });
    document.addEventListener('focusin', onFocusIn);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['role'],
    });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);
}
