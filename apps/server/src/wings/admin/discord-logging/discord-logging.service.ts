import { eq } from 'drizzle-orm';
import { discordLogConfig } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid, missing } from '../../../kernel/errors.js';
import { type LogEventType, logEventTitles, logEventTypes } from '../../../kernel/log-event-types.js';
import type { DiscordChannelInfo, DiscordGuildInfo } from '../../../platforms/ports.js';
import { BOT_NOT_IN_GUILD, requireGuildPermission } from '../../access/index.js';
import { channelPostProblem } from './channel-access.js';
import type { LoggingConfigUpdate } from './discord-logging.schemas.js';

export const PROBLEM_MESSAGES = {
  channelGone: 'The log channel was deleted; posts to it were dropped. Choose another channel.',
  cannotPost: 'The bot was not allowed to post in the log channel; posts to it were dropped.',
} as const;
export const unknownChannel = (id: string) => `No text channel ${id} in this server.`;

/** The server's text channels with, for each, why the bot cannot post there (null when it can). */
export async function channelsWithAccess(
  ctx: AppContext,
  guild: DiscordGuildInfo,
): Promise<{ channel: DiscordChannelInfo; problem: string | null }[]> {
  const [bot, channels] = await Promise.all([
    ctx.discord.botMember(guild.id),
    ctx.discord.listTextChannels(guild.id),
  ]);
  if (!bot) throw missing(BOT_NOT_IN_GUILD);
  const me = { userId: bot.userId, roleIds: bot.roles };
  return channels.map((channel) => ({ channel, problem: channelPostProblem(guild, me, channel) }));
}

/** The text channels the bot can post log embeds in (the dialog's choices). */
export async function listPostableChannels(ctx: AppContext, actor: Actor, guildId: string) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const all = await channelsWithAccess(ctx, guild);
  return {
    channels: all
      .filter((c) => c.problem === null)
      .map(({ channel }) => ({ id: channel.id, name: channel.name })),
  };
}

type ConfigRow = typeof discordLogConfig.$inferSelect;

/** The server's logging settings as the API shows them (off when nothing is stored). */
export async function readLoggingConfig(ctx: AppContext, guildId: string): Promise<ConfigRow | undefined> {
  const [row] = await ctx.db.select().from(discordLogConfig).where(eq(discordLogConfig.guildId, guildId));
  return row;
}

function configView(row: ConfigRow | undefined) {
  const problem = row?.problem as keyof typeof PROBLEM_MESSAGES | null | undefined;
  return {
    channelId: row?.channelId ?? null,
    eventTypes: (row?.eventTypes ?? []).filter((t): t is LogEventType =>
      (logEventTypes as readonly string[]).includes(t),
    ),
    eventTypeChoices: logEventTypes.map((id) => ({ id, label: logEventTitles[id] })),
    problem:
      problem && problem in PROBLEM_MESSAGES && row?.problemAt
        ? { kind: problem, message: PROBLEM_MESSAGES[problem], at: row.problemAt.toISOString() }
        : null,
  };
}

export async function getLoggingConfig(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  return configView(await readLoggingConfig(ctx, guildId));
}

/**
 * Sets the log channel (checked first: a text channel of this server the bot can post embeds in) and the
 * kinds posted. Discord is asked before the transaction; the change and its audit entry commit together.
 */
export async function updateLoggingConfig(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: LoggingConfigUpdate,
) {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  let channelName: string | null = null;
  if (change.channelId) {
    const found = (await channelsWithAccess(ctx, guild)).find((c) => c.channel.id === change.channelId);
    if (!found) throw invalid(unknownChannel(change.channelId));
    if (found.problem) throw invalid(found.problem);
    channelName = found.channel.name;
  }
  const row = await ctx.db.transaction(async (tx) => {
    const set = {
      ...(change.channelId !== undefined ? { channelId: change.channelId } : {}),
      ...(change.eventTypes !== undefined ? { eventTypes: [...new Set(change.eventTypes)] } : {}),
      problem: null,
      problemAt: null,
      updatedAt: new Date(),
    };
    const [saved] = await tx
      .insert(discordLogConfig)
      .values({ guildId, ...set })
      .onConflictDoUpdate({ target: discordLogConfig.guildId, set })
      .returning();
    await audit(tx, {
      action: 'discord_logging.config',
      actor,
      guildId,
      targetId: saved.channelId,
      details: { channelId: saved.channelId, channelName, eventTypes: saved.eventTypes },
    });
    return saved;
  });
  return configView(row);
}
