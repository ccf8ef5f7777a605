/**
 * The last check before a VRChat request leaves this process: its sends, timed as they leave, stay within the
 * account's rate and burst (a virtual-scheduling token bucket). The shared budget counts a token when the
 * database grants it, not when the request leaves; a process stalled between the two (a loaded host, a long GC)
 * sent the stalled burst together with the next one the budget had refilled meanwhile: six requests at once
 * against VRChat's five, a 429 (the VRChat scale bench at time scale 20, where a 150 ms stall is enough). In
 * normal running the budget has spaced the requests already and this waits 0.
 */
export class SendGate {
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  /** When the next send would be due at the steady rate (theoretical arrival time). */
  private dueAt = Number.NEGATIVE_INFINITY;

  constructor(
    ratePerSecond: number,
    burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.intervalMs = 1000 / ratePerSecond;
    this.toleranceMs = (Math.max(1, burst) - 1) * this.intervalMs;
  }

  /** Reserves the next send; answers how long to wait before sending it (ms, 0: now). */
  reserve(): number {
    const now = this.now();
    this.dueAt = Math.max(this.dueAt, now);
    const wait = Math.max(0, this.dueAt - this.toleranceMs - now);
    this.dueAt += this.intervalMs;
    return wait;
  }
}
