import { and, eq, isNull } from 'drizzle-orm';
import { guildMembers } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { removeGuestsOfUser } from '../../community/index.js';
import { runGuildSync } from './sync.service.js';

/**
 * Takes back what the bot gave because of a user whose link is gone (account erasure): their guest roles,
 * then a sync of every server they are in, now, so the linked, 18+ and mapped roles and group places follow
 * the missing link. Repeats safely.
 */
export async function takeBackGrantsOf(ctx: AppContext, userId: string, actor: Actor): Promise<void> {
  await removeGuestsOfUser(ctx, userId, actor);
  const servers = await ctx.db
    .selectDistinct({ guildId: guildMembers.guildId })
    .from(guildMembers)
    .where(and(eq(guildMembers.userId, userId), isNull(guildMembers.leftAt)));
  for (const { guildId } of servers) await runGuildSync(ctx, guildId);
}
