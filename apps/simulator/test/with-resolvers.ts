/**
 * Node 20 lacks Promise.withResolvers (ES2024), which the vrchat SDK calls when it authenticates.
 * Import this before the SDK; on Node 22+ it does nothing.
 */
const P = Promise as unknown as { withResolvers?: unknown };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export {};
