import { z } from 'zod';
import { reconcileAllGuildGuests } from '../../modules/guests/guests.service.js';
import { defineJob } from '../define.js';

/**
 * Makes guest roles in Discord match the guest records: finishes what a crash left between a committed
 * record ('assigning', 'removing') and the platform call after it. Guest roles without a record are left alone.
 */
export const guestsReconcileJob = defineJob({
  name: 'guests.reconcile',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 30 * 60,
  schedule: { timerSeconds: 15 * 60, method: 'reconcileAllGuildGuests' },
  async run(ctx) {
    await reconcileAllGuildGuests(ctx);
  },
});
