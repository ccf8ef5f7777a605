import { BOT_NEEDS_MANAGE_ROLES, roleAboveBotMessage } from '../../../platforms/discord/errors.js';
import type { DiscordChannelInfo, DiscordGuildInfo } from '../../../platforms/ports.js';
import { type BotInGuild, channelPostProblem } from '../discord-logging/channel-access.js';
import { failed, passed, type SetupCheck } from './setup-checks.js';

const ADMINISTRATOR = 1n << 3n;
const MANAGE_ROLES = 1n << 28n;

/** A role the server's settings name: where it is used, and whether the bot must give and take it. */
export interface ConfiguredRole {
  roleId: string;
  usedFor: string;
  botManages: boolean;
}

/** What would stop the bot on Discord: Manage Roles, each configured role (gone, or not below the bot). */
export function discordRoleChecks(
  guild: DiscordGuildInfo,
  bot: BotInGuild,
  roles: readonly ConfiguredRole[],
): SetupCheck[] {
  const held = guild.roles.filter((r) => r.id === guild.id || bot.roleIds.includes(r.id));
  const bits = held.reduce((all, r) => all | BigInt(r.permissions), 0n);
  const owner = guild.ownerId === bot.userId;
  const botRank = Math.max(0, ...held.map((r) => r.position));
  const botRole = held.filter((r) => r.id !== guild.id).sort((a, b) => b.position - a.position)[0];
  const botRoleName = botRole ? `the bot's role (${botRole.name})` : "the bot's role";
  const checks: SetupCheck[] = [];
  checks.push(
    owner || (bits & (ADMINISTRATOR | MANAGE_ROLES)) !== 0n
      ? passed('discord', 'discord.manageRoles', 'Manage Roles')
      : failed(
          'discord',
          'discord.manageRoles',
          'Manage Roles',
          BOT_NEEDS_MANAGE_ROLES,
          `In Server Settings → Roles, give ${botRoleName} the Manage Roles permission.`,
        ),
  );
  const seen = new Map<string, ConfiguredRole[]>();
  for (const r of roles) seen.set(r.roleId, [...(seen.get(r.roleId) ?? []), r]);
  for (const [roleId, uses] of seen) {
    const usedFor = [...new Set(uses.map((u) => u.usedFor))].join(', ');
    const id = `discord.role.${roleId}`;
    const role = guild.roles.find((r) => r.id === roleId);
    const title = role ? `Role ${role.name}` : `Role ${roleId}`;
    if (!role) {
      checks.push(
        failed(
          'discord',
          id,
          title,
          `The role chosen for ${usedFor} no longer exists on Discord.`,
          `Choose another role for ${usedFor}.`,
        ),
      );
      continue;
    }
    const manages = uses.some((u) => u.botManages);
    if (manages && !owner && role.position >= botRank) {
      checks.push(
        failed(
          'discord',
          id,
          title,
          roleAboveBotMessage(role.name),
          `In Server Settings → Roles, drag ${botRoleName} above ${role.name}.`,
        ),
      );
      continue;
    }
    checks.push(passed('discord', id, title));
  }
  return checks;
}

/** Whether the bot can post in the log channel (only when logging is on). */
export function logChannelCheck(
  guild: DiscordGuildInfo,
  bot: BotInGuild,
  channelId: string,
  channels: readonly DiscordChannelInfo[],
): SetupCheck {
  const id = 'discord.logChannel';
  const title = 'Log channel';
  const channel = channels.find((c) => c.id === channelId);
  if (!channel)
    return failed(
      'discord',
      id,
      title,
      'The log channel no longer exists.',
      'Choose another channel under Management → Logging to Discord.',
    );
  const problem = channelPostProblem(guild, bot, channel);
  return problem
    ? failed(
        'discord',
        id,
        title,
        problem,
        `In #${channel.name}'s permissions, let the bot view the channel, send messages and embed links.`,
      )
    : passed('discord', id, title);
}
