import { discordApp } from '../demo.js';
import { applicationFlags, Intent } from './intents.js';
import { channelObject, guildObject, memberObject, userObject } from './serialize.js';
import type { DiscordState } from './state.js';
import type { SimGuild } from './types.js';

/** Above this many members GUILD_CREATE carries only the bot, whatever the intents (Discord: 75k). */
export const GUILD_CREATE_MEMBER_CAP = 75_000;

/** Which intent a dispatch needs; events not listed (READY, INTERACTION_CREATE…) need none. */
export const EVENT_INTENT: Record<string, number> = {
  GUILD_CREATE: Intent.Guilds,
  GUILD_UPDATE: Intent.Guilds,
  GUILD_DELETE: Intent.Guilds,
  GUILD_ROLE_CREATE: Intent.Guilds,
  GUILD_ROLE_UPDATE: Intent.Guilds,
  GUILD_ROLE_DELETE: Intent.Guilds,
  CHANNEL_CREATE: Intent.Guilds,
  CHANNEL_UPDATE: Intent.Guilds,
  CHANNEL_DELETE: Intent.Guilds,
  GUILD_MEMBER_ADD: Intent.GuildMembers,
  GUILD_MEMBER_UPDATE: Intent.GuildMembers,
  GUILD_MEMBER_REMOVE: Intent.GuildMembers,
  GUILD_BAN_ADD: Intent.GuildModeration,
  MESSAGE_CREATE: Intent.GuildMessages,
};

export function readyPayload(
  guilds: SimGuild[],
  state: DiscordState,
  sessionId: string,
  resumeUrl: string,
  shard: [number, number],
) {
  return {
    v: 10,
    user: { ...userObject(state.botUser), verified: true, mfa_enabled: true, email: null },
    guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
    session_id: sessionId,
    resume_gateway_url: resumeUrl,
    session_type: 'normal',
    application: {
      id: discordApp.clientId,
      flags: applicationFlags(state.config.privilegedIntents),
    },
    shard,
    private_channels: [],
    presences: [],
    relationships: [],
    guild_join_requests: [],
    user_settings: {},
    geo_ordered_rtc_regions: [],
    _trace: ['["gateway-simulator",{"micros":0}]'],
  };
}

/**
 * Which members GUILD_CREATE carries, as Discord documents it: without GUILD_PRESENCES (privileged)
 * only the bot itself and members in voice (the simulator has no voice); with it every member unless
 * the guild is over 75k or over the client's `large_threshold`, where only online members come.
 * Nobody but the bot is online here, so a large guild sends the bot alone.
 */
function guildCreateMembers(guild: SimGuild, intents: number, largeThreshold: number) {
  const everyone =
    (intents & Intent.GuildPresences) !== 0 &&
    guild.members.size <= GUILD_CREATE_MEMBER_CAP &&
    guild.members.size <= largeThreshold;
  if (everyone) return [...guild.members.values()];
  const bot = guild.members.get(discordApp.botUserId);
  return bot ? [bot] : [];
}

/** GUILD_CREATE as Discord sends it to a bot; `member_count` is always the total. */
export function guildCreatePayload(
  state: DiscordState,
  guild: SimGuild,
  intents: number,
  largeThreshold: number,
) {
  const large = guild.members.size > largeThreshold;
  const members = guildCreateMembers(guild, intents, largeThreshold);
  const { approximate_member_count: _a, approximate_presence_count: _p, ...base } = guildObject(guild, false);
  return {
    ...base,
    joined_at: guild.members.get(discordApp.botUserId)?.joinedAt ?? new Date().toISOString(),
    large,
    unavailable: false,
    member_count: guild.members.size,
    lazy: true,
    members: members.map((m) => memberObject(state, m)),
    channels: [...guild.channels.values()].map(channelObject),
    threads: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    application_command_counts: {},
  };
}
