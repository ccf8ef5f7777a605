import { type Client, Events, type GuildMember, type PartialGuildMember } from 'discord.js';
import type { AppContext } from '../../context.js';
import { forgetDepartedGuest, reconcileHostGuests } from '../../modules/guests/guests.service.js';

/**
 * A member left (or was kicked): a host who is gone has no slots, so their guests lose the guest role;
 * a guest who is gone lost their roles with Discord, so their guest records go and free the slots.
 */
export function onGuildMemberRemove(client: Client, ctx: AppContext): () => void {
  const handler = async (member: GuildMember | PartialGuildMember) => {
    try {
      await reconcileHostGuests(ctx, member.guild.id, member.id);
      await forgetDepartedGuest(ctx, member.guild.id, member.id);
    } catch (err) {
      ctx.log.error({ err, guildId: member.guild.id, userId: member.id }, 'Guest slots: reconcile failed');
    }
  };
  client.on(Events.GuildMemberRemove, handler);
  return () => client.off(Events.GuildMemberRemove, handler);
}
