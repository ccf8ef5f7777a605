import type { DiscordChannelInfo, DiscordGuildInfo } from '../../../platforms/ports.js';

const ADMINISTRATOR = 1n << 3n;
const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const EMBED_LINKS = 1n << 14n;
const NEEDED = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS;

export interface BotInGuild {
  userId: string;
  roleIds: readonly string[];
}

/**
 * The bot's permission bits in one channel, as Discord computes them: its roles' (Administrator or ownership
 * grant everything), then the channel's @everyone overwrite, its role overwrites together (deny, then allow),
 * and its own member overwrite.
 */
export function botChannelPermissions(guild: DiscordGuildInfo, bot: BotInGuild, channel: DiscordChannelInfo) {
  if (guild.ownerId === bot.userId) return ~0n;
  const held = guild.roles.filter((r) => r.id === guild.id || bot.roleIds.includes(r.id));
  let perms = held.reduce((all, r) => all | BigInt(r.permissions), 0n);
  if ((perms & ADMINISTRATOR) !== 0n) return ~0n;
  const overwrites = channel.permissionOverwrites;
  const everyone = overwrites.find((o) => o.type === 'role' && o.id === guild.id);
  if (everyone) perms = (perms & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type !== 'role' || o.id === guild.id || !bot.roleIds.includes(o.id)) continue;
    allow |= BigInt(o.allow);
    deny |= BigInt(o.deny);
  }
  perms = (perms & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 'member' && o.id === bot.userId);
  if (own) perms = (perms & ~BigInt(own.deny)) | BigInt(own.allow);
  return perms;
}

/** Why the bot cannot post log embeds in the channel (View Channel, Send Messages, Embed Links), or null. */
export function channelPostProblem(
  guild: DiscordGuildInfo,
  bot: BotInGuild,
  channel: DiscordChannelInfo,
): string | null {
  const perms = botChannelPermissions(guild, bot, channel);
  if ((perms & NEEDED) === NEEDED) return null;
  const missing = [
    (perms & VIEW_CHANNEL) === 0n ? 'View Channel' : null,
    (perms & SEND_MESSAGES) === 0n ? 'Send Messages' : null,
    (perms & EMBED_LINKS) === 0n ? 'Embed Links' : null,
  ].filter((m): m is string => m !== null);
  return `The bot lacks ${missing.join(', ')} in #${channel.name}.`;
}
