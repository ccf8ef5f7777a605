import { type Client, Events, type Guild } from 'discord.js';
import type { AppContext } from '../../context.js';
import { reconcileGuildGuests } from '../../modules/guests/guests.service.js';

/**
 * Whenever the bot (re)joins the gateway, and for a server it is added to, it catches up on the role
 * changes and departures it missed while away, so guest slots never stay wrong after a restart.
 */
export function onReady(client: Client, ctx: AppContext): () => void {
  const reconcile = async (guildId: string) => {
    try {
      await reconcileGuildGuests(ctx, guildId);
    } catch (err) {
      ctx.log.error({ err, guildId }, 'Guest slots: catch-up failed');
    }
  };
  const all = async () => {
    for (const guildId of client.guilds.cache.keys()) await reconcile(guildId);
  };
  const onGuild = (guild: Guild) => void reconcile(guild.id);
  const onShardReady = () => void all();
  client.on(Events.ShardReady, onShardReady);
  client.on(Events.GuildCreate, onGuild);
  if (client.isReady()) void all();
  return () => {
    client.off(Events.ShardReady, onShardReady);
    client.off(Events.GuildCreate, onGuild);
  };
}
