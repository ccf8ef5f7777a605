import { retentionPurgeJob } from '../../kernel/job-catalog.js';
import { closeFinishedErasures } from '../../wings/identity/privacy/account-erasure.js';
import { handleJob } from '../define.js';
import { purgeOldHistory } from '../history-retention.js';
import { purgeExpired } from '../retention.js';

/**
 * The privacy policy's 72 hours: expired sessions, tokens and cooldowns; then the audit log's and the link
 * events' retention in batches (idempotent). Finished erasures are erased once more and forgotten.
 */
export const retentionPurgeHandler = handleJob(retentionPurgeJob, async (ctx) => {
  await purgeExpired(ctx.db, { keepDiscordTokens: ctx.config.discord.linkedRolesEnabled });
  await closeFinishedErasures(ctx);
  await purgeOldHistory(ctx.db, ctx.config.retention);
});
