import {
  type Channel,
  type Client,
  type ClientEvents,
  Events,
  type Guild,
  type GuildMember,
  type Role,
} from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { guildStateFromCache } from '../../platforms/discord/guild-cache.js';
import { guildSnapshotWriter } from '../../wings/access/guilds/guild-snapshot.events.js';

/**
 * The gateway holder keeps the server snapshot (wings/access/guilds) that API processes read servers from:
 * every server of a shard at its READY and after every RESUME, and each server again on the events that change
 * what the snapshot keeps (the server, its roles, its text channels, the bot's own roles); GUILD_DELETE (the bot left) removes it.
 * discord.js has applied the event to its cache when it emits it, so each write is the cache's state.
 */
export function onGuildSnapshot(client: Client, ctx: AppContext): () => void {
  const writer = guildSnapshotWriter(ctx.db);
  const read = (guildId: string) => () => {
    const guild = client.guilds.cache.get(guildId);
    return guild?.available ? guildStateFromCache(guild) : undefined;
  };
  const logged = (guildId: string | undefined, done: Promise<void>) => {
    done.catch((err) => ctx.log.error({ err, guildId }, 'Servers: could not write the server snapshot'));
  };
  const changed = (guild: Guild) => logged(guild.id, writer.changed(guild.id, read(guild.id)));

  const shardReady = (shardId: number) => {
    const guilds = client.guilds.cache
      .filter((g) => g.shardId === shardId)
      .map((g) => ({ id: g.id, read: read(g.id) }));
    logged(undefined, writer.shardReady({ id: shardId, count: client.options.shardCount ?? 1 }, guilds));
  };
  const onGuild = (guild: Guild) => changed(guild);
  const onGuildUpdate = (_: Guild, guild: Guild) => changed(guild);
  const onRole = (role: Role) => changed(role.guild);
  const onRoleUpdate = (_: Role, role: Role) => changed(role.guild);
  const onMemberUpdate = (_: unknown, member: GuildMember) => {
    if (member.id === client.user?.id) changed(member.guild);
  };
  const onChannel = (channel: Channel) => {
    if ('guild' in channel && channel.guild) changed(channel.guild);
  };
  const onChannelUpdate = (_: Channel, channel: Channel) => onChannel(channel);
  const onGuildDelete = (guild: Guild) => logged(guild.id, writer.left(guild.id));

  const offs: (() => void)[] = [];
  const on = <E extends keyof ClientEvents>(event: E, listener: (...args: ClientEvents[E]) => void) => {
    client.on(event, listener);
    offs.push(() => client.off(event, listener));
  };
  on(Events.ShardReady, shardReady);
  on(Events.ShardResume, shardReady);
  on(Events.GuildCreate, onGuild);
  on(Events.GuildAvailable, onGuild);
  on(Events.GuildUpdate, onGuildUpdate);
  on(Events.GuildRoleCreate, onRole);
  on(Events.GuildRoleUpdate, onRoleUpdate);
  on(Events.GuildRoleDelete, onRole);
  on(Events.GuildMemberUpdate, onMemberUpdate);
  on(Events.ChannelCreate, onChannel);
  on(Events.ChannelUpdate, onChannelUpdate);
  on(Events.ChannelDelete, onChannel);
  on(Events.GuildDelete, onGuildDelete);
  // Registered after the gateway connected (a takeover): write what the cache holds now.
  if (client.isReady()) for (const shardId of client.ws.shards.keys()) shardReady(shardId);
  return () => {
    for (const off of offs) off();
  };
}
