import { retentionPurgeJob } from '../../kernel/job-catalog.js';
import { forgetFinishedErasures } from '../../wings/identity/privacy/forget-erasures.js';
import { handleJob } from '../define.js';
import { purgeOldHistory } from '../history-retention.js';
import { purgeExpired } from '../retention.js';

/**
 * The privacy policy's 72 hours: expired sessions, tokens and cooldowns; then the audit log's and the link
 * events' retention in batches (idempotent).
 */
export const retentionPurgeHandler = handleJob(retentionPurgeJob, async (ctx) => {
  await purgeExpired(ctx.db, { keepDiscordTokens: ctx.config.discord.linkedRolesEnabled });
  await forgetFinishedErasures(ctx.database.executeSql);
  await purgeOldHistory(ctx.db, ctx.config.retention);
});
