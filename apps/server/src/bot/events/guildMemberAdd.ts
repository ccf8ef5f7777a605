import type { Client, GatewayGuildMemberAddDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { memberChanged } from '../../wings/access/members/member-mirror.events.js';
import { onDispatch } from './raw.js';

/** A member joined: the mirror has them at once (the Members tab, guests, permissions read it). */
export function onGuildMemberAdd(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildMemberAddDispatchData>(client, ctx.log, 'GUILD_MEMBER_ADD', (d) => {
    memberChanged(ctx, d.guild_id, d)
      // A linked newcomer may get the linked role, group membership and mapped roles.
      .then(() => requestGuildSync(ctx, d.guild_id, 'member'))
      .catch((err) =>
        ctx.log.error({ err, guildId: d.guild_id, userId: d.user.id }, 'Members: could not store a join'),
      );
  });
}
