import { discordApp } from '../demo.js';
import { channelObject, guildObject, memberObject, userObject } from './serialize.js';
import type { DiscordState } from './state.js';
import type { SimGuild } from './types.js';

export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildMessages: 1 << 9,
} as const;

/** Every intent bit Discord defines (0–16, 20, 21, 24, 25); anything else is "invalid intents" (4013). */
export const VALID_INTENTS = 0b11_0011_0001_1111_1111_1111_1111;

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
  MESSAGE_CREATE: Intent.GuildMessages,
};

export function readyPayload(state: DiscordState, sessionId: string, resumeUrl: string) {
  return {
    v: 10,
    user: { ...userObject(state.botUser), verified: true, mfa_enabled: true, email: null },
    guilds: state.botGuilds().map((g) => ({ id: g.id, unavailable: true })),
    session_id: sessionId,
    resume_gateway_url: resumeUrl,
    session_type: 'normal',
    application: {
      id: discordApp.clientId,
      flags: state.config.privilegedIntents & Intent.GuildMembers ? 1 << 15 : 0,
    },
    shard: [0, 1],
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
 * GUILD_CREATE as Discord sends it to a bot. Member lists follow Discord's rules: without the
 * GUILD_MEMBERS intent only the bot itself; in "large" guilds (more members than the client's
 * large_threshold) also only the bot, the rest must be requested with op 8.
 */
export function guildCreatePayload(
  state: DiscordState,
  guild: SimGuild,
  intents: number,
  largeThreshold: number,
) {
  const large = guild.members.size > largeThreshold;
  const everyone = (intents & Intent.GuildMembers) !== 0 && !large;
  const members = [...guild.members.values()].filter((m) => everyone || m.userId === discordApp.botUserId);
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
