import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';
import { requireGuildPermission } from '../../access/index.js';
import { guestRoleEntriesOf, guildSettingsOf } from '../../community/index.js';
import {
  activeMappingsOf,
  followProblemOf,
  groupRoleActions,
  groupsPerAccount,
  linkOf,
} from '../../group-sync/index.js';
import { readLoggingConfig } from '../discord-logging/discord-logging.service.js';
import { type ConfiguredRole, discordRoleChecks, logChannelCheck } from './discord-checks.js';
import { failed, type SetupCheck, unknown, withDeadline } from './setup-checks.js';
import { botAccountCheck, vrchatGroupChecks } from './vrchat-checks.js';

/** Each platform's part of the check gives up after this long (the panel then says it could not check). */
export const PLATFORM_DEADLINE_MS = 8000;

/** The roles the server's settings name (auto roles, guest roles, role mappings). */
async function configuredRoles(ctx: AppContext, guildId: string): Promise<ConfiguredRole[]> {
  const settings = await guildSettingsOf(ctx.db, guildId);
  const guests = await guestRoleEntriesOf(ctx.db, guildId);
  const { d2g, g2d } = await activeMappingsOf(ctx.db, guildId);
  const roles: ConfiguredRole[] = [];
  const add = (roleId: string | null | undefined, usedFor: string, botManages: boolean) => {
    if (roleId && roleId !== guildId) roles.push({ roleId, usedFor, botManages });
  };
  add(settings?.linkedRoleId, 'the Linked Users Role', true);
  add(settings?.ageVerifiedPlus18RoleId, 'the 18+ Verified Role', true);
  add(settings?.ageVerifiedRoleId, 'the Age Verified Role', true);
  for (const g of guests) {
    add(g.guestRoleId, 'a guest role', true);
    add(g.mainRoleId, 'a guest role entry', false);
  }
  for (const m of g2d) add(m.discordRoleId, 'a group-to-Discord role mapping', true);
  for (const m of d2g) add(m.discordRoleId, 'a Discord-to-group role mapping', false);
  return roles;
}

async function discordChecks(ctx: AppContext, guild: DiscordGuildInfo): Promise<SetupCheck[]> {
  const roles = await configuredRoles(ctx, guild.id);
  const logging = await readLoggingConfig(ctx, guild.id);
  const logChannelId = logging?.channelId && logging.eventTypes.length > 0 ? logging.channelId : null;
  try {
    const [bot, channels] = await withDeadline(
      Promise.all([
        ctx.discord.botMember(guild.id),
        logChannelId ? ctx.discord.listTextChannels(guild.id) : Promise.resolve([]),
      ]),
      PLATFORM_DEADLINE_MS,
    );
    if (!bot) return [unknown('discord', 'discord.bot', 'The bot in the server')];
    const me = { userId: bot.userId, roleIds: bot.roles };
    const checks = discordRoleChecks(guild, me, roles);
    if (logChannelId) checks.push(logChannelCheck(guild, me, logChannelId, channels));
    return checks;
  } catch (err) {
    ctx.log.warn({ err, guildId: guild.id }, 'setup check: Discord did not answer');
    return [unknown('discord', 'discord.bot', 'The bot in the server')];
  }
}

async function vrchatChecks(ctx: AppContext, guildId: string): Promise<SetupCheck[]> {
  const link = await linkOf(ctx.db, guildId);
  if (!link) return [];
  const mappings = (await activeMappingsOf(ctx.db, guildId)).d2g;
  const needs = {
    enabled: link.enabled,
    autoKick: link.autoKick,
    actions: new Set<string>(mappings.map((a) => a.action)),
    mappedGroupRoleIds: new Set(
      mappings.filter((m) => groupRoleActions.includes(m.action)).flatMap((m) => m.groupRoleId ?? []),
    ),
  };
  const account = link.vrchatAccount ?? ctx.vrchat.accounts()[0] ?? '';
  const configured = ctx.vrchat.accounts().some((a) => a.toLowerCase() === account.toLowerCase());
  const served = (await groupsPerAccount(ctx)).get(account.toLowerCase()) ?? 0;
  const accountCheck = botAccountCheck(account, configured, served);
  if (!configured) return [accountCheck];
  try {
    const [group, botId, profile] = await withDeadline(
      Promise.all([
        ctx.vrchat.getGroup(link.groupId, { includeRoles: true }),
        ctx.vrchat.currentUserId(link.groupId),
        ctx.vrchat.accountProfile(account),
      ]),
      PLATFORM_DEADLINE_MS,
    );
    if (!group) return [accountCheck, ...vrchatGroupChecks(null, botId, null, needs)];
    const [roles, member] = await withDeadline(
      Promise.all([
        group.roles ? Promise.resolve(group.roles) : ctx.vrchat.getGroupRoles(link.groupId),
        ctx.vrchat.getGroupMember(link.groupId, botId),
      ]),
      PLATFORM_DEADLINE_MS,
    );
    return [
      accountCheck,
      ...vrchatGroupChecks({ ...group, roles }, botId, member, needs, profile.displayName),
    ];
  } catch (err) {
    ctx.log.warn({ err, guildId }, 'setup check: VRChat did not answer');
    return [accountCheck, unknown('vrchat', 'vrchat.group', 'Linked group')];
  }
}

/** Following the group's audit log failed (recorded by groups.follow): the Sync box shows the same sentence. */
async function followCheck(ctx: AppContext, guildId: string): Promise<SetupCheck[]> {
  const problem = await followProblemOf(ctx.db, guildId);
  if (!problem) return [];
  return [
    failed(
      'vrchat',
      'vrchat.follow',
      "Following the group's changes",
      problem,
      problem.includes('group-audit-view')
        ? "In the group's settings on VRChat, give the bot's role the View Audit Log permission (group-audit-view)."
        : 'Nothing to do if it passes at the next try; the bot retries on its own.',
    ),
  ];
}

/**
 * 'Check setup': what would stop the bot from doing its job in this server, each with a one-line fix.
 * Reads the settings first, then asks Discord and VRChat (each bounded by a deadline, no transaction open).
 */
export async function runSetupCheck(ctx: AppContext, actor: Actor, guildId: string) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  const [discord, vrchat, follow] = await Promise.all([
    discordChecks(ctx, guild),
    vrchatChecks(ctx, guildId),
    followCheck(ctx, guildId),
  ]);
  return { checks: [...discord, ...vrchat, ...follow], checkedAt: new Date().toISOString() };
}
