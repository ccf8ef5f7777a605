/** A sleep that `wake()` ends early (a background loop's wait that shutdown must not sit out). */
export function wakeableSleep(): { sleep(ms: number): Promise<void>; wake(): void } {
  let wakeCurrent: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakeCurrent = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wakeCurrent?.(),
  };
}
