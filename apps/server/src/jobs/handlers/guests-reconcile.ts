import { z } from 'zod';
import { reconcileAllGuildGuests } from '../../modules/guests/guests.service.js';
import { defineJob } from '../define.js';

/**
 * Makes guest roles in Discord match the guest records: repairs what a crash left between a committed
 * record and the platform call after it (a record without its role, a guest role no record explains).
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
