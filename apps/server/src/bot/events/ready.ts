import { type Client, Events, type Guild } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { fillGuilds } from '../../wings/access/members/member-mirror.reconcile.js';
import { endGrantsOfDepartedMembers } from '../../wings/access/permissions/permissions.service.js';
import { reconcileGuildGuests } from '../../wings/community/guests/guests.reconcile.js';

/**
 * When a shard starts a new session (READY: first connect, or Discord refused to resume) and for a server
 * the bot is added to, it fills the member mirror again (events were missed; the fill writes only the rows
 * that changed, smallest servers first) and then catches up on the role changes and departures it missed
 * while away, so guest slots never stay wrong after a restart, and grants of members who left meanwhile
 * end. A RESUME needs none of it: Discord replays every event the session missed, and the event handlers
 * apply them as they come.
 */
export function onReady(client: Client, ctx: AppContext): () => void {
  const catchUp = async (guildIds: string[]) => {
    await fillGuilds(ctx, guildIds);
    for (const guildId of guildIds) {
      try {
        await reconcileGuildGuests(ctx, guildId);
      } catch (err) {
        ctx.log.error({ err, guildId }, 'Guest slots: catch-up failed');
      }
      try {
        await endGrantsOfDepartedMembers(ctx, guildId);
      } catch (err) {
        ctx.log.error({ err, guildId }, 'Permissions: catch-up failed');
      }
    }
  };
  const caughtUp = (guildIds: string[]) =>
    catchUp(guildIds).catch((err) => ctx.log.error({ err, guildIds }, 'Members: catch-up failed'));
  /** The servers of one shard (a process may hold several; each has sessions of its own). */
  const shardReady = (shardId: number) =>
    caughtUp([...client.guilds.cache.filter((g) => g.shardId === shardId).keys()]);
  const onGuild = (guild: Guild) => caughtUp([guild.id]);
  client.on(Events.ShardReady, shardReady);
  client.on(Events.GuildCreate, onGuild);
  if (client.isReady()) caughtUp([...client.guilds.cache.keys()]);
  return () => {
    client.off(Events.ShardReady, shardReady);
    client.off(Events.GuildCreate, onGuild);
  };
}
