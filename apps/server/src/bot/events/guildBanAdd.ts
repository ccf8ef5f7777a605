import type { Client, GatewayGuildBanAddDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { memberDeparted } from './guildMemberRemove.js';
import { onDispatch } from './raw.js';

/**
 * A member was banned. With the Server Members intent GUILD_MEMBER_REMOVE follows and does the same (the
 * steps are idempotent); without it this is the only departure the bot hears of.
 */
export function onGuildBanAdd(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildBanAddDispatchData>(client, ctx.log, 'GUILD_BAN_ADD', (d) =>
    memberDeparted(ctx, d.guild_id, d.user.id),
  );
}
