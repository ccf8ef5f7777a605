import type { AppContext } from '../kernel/context.js';
import { reconcileHeldGuildMembers } from '../wings/access/members/member-mirror.reconcile.js';

/**
 * The member reconciliation of this process's shards when another process's job asks for it (NOTIFY): one at
 * a time, one asked for meanwhile runs once after it, and the tenure's end stops it between servers (they
 * would be filled over REST from then on).
 */
export function heldShardsReconciler(ctx: AppContext): { request(): void; endTenure(): void } {
  let running: Promise<void> | undefined;
  let again = false;
  let tenure = new AbortController();
  const request = () => {
    if (running) {
      again = true;
      return;
    }
    const signal = tenure.signal;
    running = reconcileHeldGuildMembers(ctx, signal)
      .catch((err) => ctx.log.error({ err }, 'Members: reconciliation of the held shards failed'))
      .finally(() => {
        running = undefined;
        if (again && !signal.aborted) {
          again = false;
          request();
        }
      });
  };
  return {
    request,
    endTenure() {
      again = false;
      tenure.abort();
      tenure = new AbortController();
    },
  };
}
