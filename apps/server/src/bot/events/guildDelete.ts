import type { Client, GatewayGuildDeleteDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { guildGone } from '../../wings/access/members/member-mirror.events.js';
import { onDispatch } from './raw.js';

/** The bot left a server (or it was deleted): its members go from the mirror. An outage keeps them. */
export function onGuildDelete(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildDeleteDispatchData>(client, ctx.log, 'GUILD_DELETE', (d) => {
    if (d.unavailable) return;
    guildGone(ctx, d.id).catch((err) =>
      ctx.log.error({ err, guildId: d.id }, 'Members: could not drop a server'),
    );
  });
}
