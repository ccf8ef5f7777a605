import { useEffect, useState } from 'react';

/** A countdown started by `start()`: whole seconds left (rounded up) and whether it is running. */
export function useCooldown(durationMs: number) {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const time = Date.now();
      setNow(time);
      if (time >= until) clearInterval(timer);
    }, 200);
    return () => clearInterval(timer);
  }, [until]);

  const remainingMs = Math.max(0, until - now);
  return {
    active: remainingMs > 0,
    secondsLeft: Math.ceil(remainingMs / 1000),
    start: () => {
      const time = Date.now();
      setNow(time);
      setUntil(time + durationMs);
    },
  };
}
