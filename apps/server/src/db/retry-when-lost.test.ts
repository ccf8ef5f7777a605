import { describe, expect, it } from 'vitest';
import { retryWhenDatabaseLost } from './retry-when-lost.js';

const terminated = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

/** A write that fails with the given errors first, then answers 'stored'; counts its tries. */
function writeFailing(...errors: Error[]) {
  let tries = 0;
  const write = async () => {
    const err = errors[tries++];
    if (err) throw err;
    return 'stored';
  };
  return { write, tries: () => tries };
}

describe('retryWhenDatabaseLost', () => {
  const waited: number[] = [];
  const wait = async (ms: number) => {
    waited.push(ms);
  };

  it('tries a write again after a terminated connection, waiting as the schedule says', async () => {
    waited.length = 0;
    const w = writeFailing(terminated(), new Error('Connection terminated unexpectedly'));
    await expect(retryWhenDatabaseLost(w.write, [10, 20, 30], wait)).resolves.toBe('stored');
    expect(w.tries()).toBe(3);
    expect(waited).toEqual([10, 20]);
  });

  it('does not try again on any other error', async () => {
    const w = writeFailing(Object.assign(new Error('duplicate key'), { code: '23505' }));
    await expect(retryWhenDatabaseLost(w.write, [10], wait)).rejects.toThrow('duplicate key');
    expect(w.tries()).toBe(1);
  });

  it('gives the last error back when the schedule is spent', async () => {
    const w = writeFailing(terminated(), terminated(), terminated());
    await expect(retryWhenDatabaseLost(w.write, [1, 1], wait)).rejects.toMatchObject({ code: '57P01' });
    expect(w.tries()).toBe(3);
  });
});
