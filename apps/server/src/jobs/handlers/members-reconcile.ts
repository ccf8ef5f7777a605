import { z } from 'zod';
import { reconcileAllGuildMembers } from '../../modules/members/member-mirror.reconcile.js';
import { defineJob } from '../define.js';

/** Full reconciliation of the member mirror with Discord (the gateway keeps it current in between). */
export const membersReconcileJob = defineJob({
  name: 'members.reconcile',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 5 * 60, backoff: true },
  expireInSeconds: 60 * 60,
  schedule: { timerSeconds: 6 * 60 * 60, method: 'reconcileAllGuildMembers' },
  async run(ctx) {
    await reconcileAllGuildMembers(ctx);
  },
});
