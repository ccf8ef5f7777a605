import { z } from 'zod';
import { ACCOUNT_ERASE_JOB, eraseAccount } from '../../modules/privacy/account-erasure.js';
import { defineJob } from '../define.js';

/**
 * A deleted account: unlink, take back the roles and places the bot gave, erase the rows, pseudonymise
 * the audit entries that stay. Every step repeats safely, so a crash or a platform outage is retried.
 */
export const accountEraseJob = defineJob({
  name: ACCOUNT_ERASE_JOB,
  payload: z.object({ userId: z.string(), pseudonym: z.string(), vrcUserId: z.string().nullable() }),
  retry: { limit: 10, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
  async run(ctx, payload) {
    await eraseAccount(ctx, payload);
  },
});
