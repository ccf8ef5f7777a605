import type { Client, GatewayGuildRoleUpdateDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { onDispatch } from './raw.js';

/**
 * A role changed (permissions, position, name): moving the bot's role back up or giving Manage Roles back is
 * the fix for the sync's Discord warnings, so the server syncs now instead of at the 15-minute timer. Any
 * role's change asks (the event does not say what changed); a burst of them, as a reorder sends, collapses
 * into one sync.
 */
export function onGuildRoleUpdate(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildRoleUpdateDispatchData>(client, ctx.log, 'GUILD_ROLE_UPDATE', (d) => {
    return requestGuildSync(ctx, d.guild_id, 'access');
  });
}
