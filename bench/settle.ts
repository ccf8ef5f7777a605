import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process has used so far, or undefined where /proc cannot tell (not Linux). */
function cpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** What waiting for quiet found: how long it took, and whether the processes did settle. */
export interface Settled {
  waitedMs: number;
  quiet: boolean;
}

/**
 * Waits until the processes use less than `share` of a core over a whole `windowMs` (their start-up work, a
 * burst of background work, the previous case's load finished), at most `maxMs`: a measurement then sees
 * the steady state production runs in, not the process's first minute. Where /proc cannot tell, it does not
 * wait.
 */
export async function waitForQuiet(
  pids: readonly number[],
  { windowMs = 1000, share = 0.05, maxMs = 30_000 } = {},
): Promise<Settled> {
  const started = Date.now();
  const total = () => {
    let sum = 0;
    for (const pid of pids) {
      const s = cpuSeconds(pid);
      if (s === undefined) return undefined;
      sum += s;
    }
    return sum;
  };
  for (;;) {
    const before = total();
    if (before === undefined) return { waitedMs: 0, quiet: true };
    await new Promise((r) => setTimeout(r, windowMs));
    const after = total();
    if (after === undefined) return { waitedMs: Date.now() - started, quiet: true };
    if (after - before < (share * windowMs) / 1000) return { waitedMs: Date.now() - started, quiet: true };
    if (Date.now() - started >= maxMs) return { waitedMs: Date.now() - started, quiet: false };
  }
}
