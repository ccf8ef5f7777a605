import type { Client, GatewayGuildRoleDeleteDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { roleDeleted } from '../../wings/access/members/member-mirror.events.js';
import { onDispatch } from './raw.js';

/** A role was deleted: Discord sends no member updates for it, so the mirror takes it off everyone. */
export function onGuildRoleDelete(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildRoleDeleteDispatchData>(client, ctx.log, 'GUILD_ROLE_DELETE', (d) => {
    roleDeleted(ctx, d.guild_id, d.role_id).catch((err) =>
      ctx.log.error(
        { err, guildId: d.guild_id, roleId: d.role_id },
        'Members: could not drop a deleted role',
      ),
    );
  });
}
