import { reconcileAllGuildGuests } from '../../modules/guests/guests.service.js';
import { guestsReconcileJob } from '../catalog.js';
import { handleJob } from '../define.js';

/**
 * Makes guest roles in Discord match the guest records: finishes what a crash left between a committed
 * record ('assigning', 'removing') and the platform call after it. Guest roles without a record are left alone.
 */
export const guestsReconcileHandler = handleJob(guestsReconcileJob, async (ctx) => {
  await reconcileAllGuildGuests(ctx);
});
