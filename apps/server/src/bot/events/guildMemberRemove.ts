import type { Client, GatewayGuildMemberRemoveDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { memberLeft } from '../../wings/access/members/member-mirror.events.js';
import { endGrantOfDepartedMember } from '../../wings/access/permissions/permissions.service.js';
import { forgetDepartedGuest, reconcileHostGuests } from '../../wings/community/guests/guests.reconcile.js';
import { onDispatch } from './raw.js';

/**
 * A member left (or was kicked): the mirror marks them gone; then a host who is gone has no slots, so
 * their guests lose the guest role, and a guest who is gone lost their roles with Discord, so their
 * guest records go and free the slots. Server permissions granted here end too (rejoining gives nothing back).
 * Then the server syncs (Auto Remove, NoMembership) instead of waiting for the 15-minute timer.
 */
export function onGuildMemberRemove(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildMemberRemoveDispatchData>(client, ctx.log, 'GUILD_MEMBER_REMOVE', (d) =>
    memberDeparted(ctx, d.guild_id, d.user.id),
  );
}

/** What a departure (leave, kick, ban) sets off; each step is logged on failure and the others go on. */
export async function memberDeparted(ctx: AppContext, guildId: string, userId: string): Promise<void> {
  const log = { guildId, userId };
  try {
    await memberLeft(ctx, guildId, userId);
  } catch (err) {
    ctx.log.error({ err, ...log }, 'Members: could not store a departure');
  }
  try {
    await endGrantOfDepartedMember(ctx, guildId, userId);
  } catch (err) {
    ctx.log.error({ err, ...log }, 'Permissions: could not end the grant of a departed member');
  }
  try {
    await reconcileHostGuests(ctx, guildId, userId);
    await forgetDepartedGuest(ctx, guildId, userId);
  } catch (err) {
    ctx.log.error({ err, ...log }, 'Guest slots: reconcile failed');
  }
  await requestGuildSync(ctx, guildId, 'departure');
}
