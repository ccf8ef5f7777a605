import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { currentGuildIdsOf } from '../../access/index.js';
import { removeGuestsOfUser } from '../../community/index.js';
import { runGuildSync } from './sync.service.js';

/**
 * Takes back what the bot gave because of a user whose link is gone (account erasure): their guest roles,
 * then a sync of every server they are in, now, so the linked, 18+ and mapped roles and group places follow
 * the missing link. Guest records made after `madeBy` (the deletion request) belong to the person's new
 * account and stay. Repeats safely.
 */
export async function takeBackGrantsOf(
  ctx: AppContext,
  userId: string,
  actor: Actor,
  madeBy: string,
): Promise<void> {
  await removeGuestsOfUser(ctx, userId, actor, madeBy);
  for (const guildId of await currentGuildIdsOf(ctx.db, [userId])) await runGuildSync(ctx, guildId);
}
