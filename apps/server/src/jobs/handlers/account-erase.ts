import { accountEraseJob } from '../../kernel/job-catalog.js';
import { takeBackGrantsOf } from '../../wings/group-sync/sync/take-back.js';
import { eraseAccount } from '../../wings/identity/privacy/account-erasure.js';
import { handleJob } from '../define.js';

/**
 * A deleted account: unlink, take back the roles and places the bot gave, erase the rows, pseudonymise
 * the audit entries that stay. Every step repeats safely, so a crash or a platform outage is retried.
 */
export const accountEraseHandler = handleJob(accountEraseJob, async (ctx, payload, signal) => {
  await eraseAccount(ctx, payload, takeBackGrantsOf, signal);
});
