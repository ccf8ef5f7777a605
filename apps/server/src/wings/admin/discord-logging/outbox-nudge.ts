import type { AppContext } from '../../../kernel/context.js';
import { onDiscordLogQueued } from '../../../kernel/discord-log-outbox.js';
import { discordLogDeliverJob } from '../../../kernel/job-catalog.js';

/** The write may still be inside its transaction: the job starts a second later, after the commit. */
const START_AFTER_SECONDS = 1;

/**
 * Queues the delivery job whenever this process writes a log post, so posts go out within seconds (the
 * job's timer catches anything this misses). Answers the function that stops watching.
 */
export function watchDiscordLogOutbox(ctx: AppContext): () => void {
  return onDiscordLogQueued(() => {
    void ctx.jobs
      .send(
        discordLogDeliverJob,
        {},
        { singletonKey: discordLogDeliverJob.name, startAfterSeconds: START_AFTER_SECONDS },
      )
      .catch((err) => ctx.log.debug({ err }, 'discordLog.deliver not queued; its timer posts the log'));
  });
}
