import { and, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { guests } from '../../../db/schema/index.js';
import { requireUser } from '../../../http/auth.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing, refused } from '../../../kernel/errors.js';
import { BOT_NOT_IN_GUILD } from '../../access/index.js';

export const NOT_YOUR_GUEST = 'That guest was added by another host.';

/**
 * The guest routes' caller, by the rule every server route follows: 401 when not signed in, 404 when the bot
 * is not in the server (it does not exist for us), then the guest rules' 403s.
 */
export async function guestHost(ctx: AppContext, req: FastifyRequest, guildId: string): Promise<string> {
  const userId = requireUser(req).user.id;
  if (!(await ctx.discord.getGuild(guildId))) throw missing(BOT_NOT_IN_GUILD);
  return userId;
}

/** Someone else's guest exists, so it is 403 (not 404, which stays for an entry nobody has). */
export async function refuseOthersGuest(ctx: AppContext, guildId: string, hostId: string, guestId: string) {
  const [row] = await ctx.db
    .select({ hostUserId: guests.hostUserId })
    .from(guests)
    // A guest being removed is gone already: the unassign answers 404.
    .where(and(eq(guests.id, guestId), eq(guests.guildId, guildId), ne(guests.state, 'removing')))
    .limit(1);
  if (row && row.hostUserId !== hostId) throw refused(NOT_YOUR_GUEST);
}
