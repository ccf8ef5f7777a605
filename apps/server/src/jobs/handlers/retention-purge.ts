import { purgeExpired } from '../../modules/auth/retention.js';
import { forgetFinishedErasures } from '../../modules/privacy/forget-erasures.js';
import { retentionPurgeJob } from '../catalog.js';
import { handleJob } from '../define.js';

/** The privacy policy's 72 hours: expired sessions, tokens and cooldowns (idempotent). */
export const retentionPurgeHandler = handleJob(retentionPurgeJob, async (ctx) => {
  await purgeExpired(ctx.db, { keepDiscordTokens: ctx.config.discord.linkedRolesEnabled });
  await forgetFinishedErasures(ctx.database.executeSql);
});
