import { membersReconcileJob } from '../../kernel/job-catalog.js';
import { reconcileAllGuildMembers } from '../../wings/access/members/member-mirror.reconcile.js';
import { handleJob } from '../define.js';

/** Full reconciliation of the member mirror with Discord (the gateway keeps it current in between). */
export const membersReconcileHandler = handleJob(membersReconcileJob, async (ctx, _payload, signal) => {
  await reconcileAllGuildMembers(ctx, signal);
});
