import { type Client, Events, type GuildMember, type PartialGuildMember } from 'discord.js';
import type { AppContext } from '../../context.js';
import { reconcileHostGuests } from '../../modules/guests/guests.service.js';

const roleIds = (m: GuildMember | PartialGuildMember) => [...m.roles.cache.keys()].sort().join(',');

/** A member's roles changed: if they host guests and lost a main role, their newest guests go. */
export function onGuildMemberUpdate(client: Client, ctx: AppContext): () => void {
  const handler = async (before: GuildMember | PartialGuildMember, after: GuildMember) => {
    if (!before.partial && roleIds(before) === roleIds(after)) return;
    try {
      await reconcileHostGuests(ctx, after.guild.id, after.id);
    } catch (err) {
      ctx.log.error({ err, guildId: after.guild.id, userId: after.id }, 'Guest slots: reconcile failed');
    }
  };
  client.on(Events.GuildMemberUpdate, handler);
  return () => client.off(Events.GuildMemberUpdate, handler);
}
