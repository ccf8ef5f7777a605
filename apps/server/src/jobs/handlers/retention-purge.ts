import { z } from 'zod';
import { purgeExpired } from '../../modules/auth/retention.js';
import { forgetFinishedErasures } from '../../modules/privacy/forget-erasures.js';
import { defineJob } from '../define.js';

/** The privacy policy's 72 hours: expired sessions, tokens and cooldowns (idempotent). */
export const retentionPurgeJob = defineJob({
  name: 'retention.purge',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 60 * 60, method: 'purgeExpired', runAtStart: true },
  async run(ctx) {
    await purgeExpired(ctx.db, { keepDiscordTokens: ctx.config.discord.linkedRolesEnabled });
    await forgetFinishedErasures(ctx.database.executeSql);
  },
});
