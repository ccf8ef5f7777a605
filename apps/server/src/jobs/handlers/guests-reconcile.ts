import { guestsReconcileJob } from '../../kernel/job-catalog.js';
import { reconcileAllGuildGuests } from '../../wings/community/guests/guests.reconcile.js';
import { handleJob } from '../define.js';

/**
 * Makes guest roles in Discord match the guest records: finishes what a crash left between a committed
 * record ('assigning', 'removing') and the platform call after it. Guest roles without a record are left alone.
 */
export const guestsReconcileHandler = handleJob(guestsReconcileJob, async (ctx, _payload, signal) => {
  await reconcileAllGuildGuests(ctx, signal);
});
