import { type Client, Events, type Guild } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { fillGuilds } from '../../wings/access/members/member-mirror.reconcile.js';
import { endGrantsOfDepartedMembers } from '../../wings/access/permissions/permissions.service.js';
import { reconcileGuildGuests } from '../../wings/community/guests/guests.reconcile.js';

/**
 * Whenever the bot (re)joins the gateway (a new session, or a resume after a drop), and for a server it
 * is added to, it fills the member mirror again (a resume replays what was missed, but a fill is the
 * certain way to catch up) and then catches up on the role changes and departures it missed while
 * away, so guest slots never stay wrong after a restart, and grants of members who left meanwhile end.
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
  const all = () => caughtUp([...client.guilds.cache.keys()]);
  const onGuild = (guild: Guild) => caughtUp([guild.id]);
  client.on(Events.ShardReady, all);
  client.on(Events.ShardResume, all);
  client.on(Events.GuildCreate, onGuild);
  if (client.isReady()) all();
  return () => {
    client.off(Events.ShardReady, all);
    client.off(Events.ShardResume, all);
    client.off(Events.GuildCreate, onGuild);
  };
}
