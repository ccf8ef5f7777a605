import { useEffect, useRef } from 'react';

/** Runs a side effect once per mount, even under StrictMode's double effects (login codes are single-use). */
export function useRunOnce(effect: () => void): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    effect();
  });
}
