import type { DiscordState } from './state.js';
import type { SimChannel, SimCommand, SimGuild, SimMember, SimMessage, SimRole, SimUser } from './types.js';

/** API object builders. Field sets follow what Discord returns today (including the nulls it sends). */

export function userObject(u: SimUser) {
  return {
    id: u.id,
    username: u.username,
    avatar: u.avatar,
    discriminator: u.bot ? '0000' : '0',
    public_flags: 0,
    flags: 0,
    ...(u.bot ? { bot: true } : {}),
    banner: null,
    accent_color: null,
    global_name: u.globalName,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

/** `GET /users/@me`: email only with the email scope (bots get null). */
export function userPiiObject(u: SimUser, withEmail: boolean) {
  return {
    ...userObject(u),
    mfa_enabled: u.mfaEnabled,
    locale: u.locale,
    premium_type: 0,
    ...(withEmail || u.bot ? { email: u.bot ? null : u.email, verified: true } : {}),
  };
}

export function roleObject(r: SimRole) {
  return {
    id: r.id,
    name: r.name,
    permissions: r.permissions.toString(),
    position: r.position,
    color: r.color,
    colors: { primary_color: r.color, secondary_color: null, tertiary_color: null },
    hoist: r.hoist,
    managed: r.managed,
    mentionable: r.mentionable,
    icon: null,
    unicode_emoji: null,
    flags: 0,
    ...(r.botId ? { tags: { bot_id: r.botId } } : {}),
  };
}

export function memberObject(state: DiscordState, m: SimMember) {
  return {
    avatar: null,
    banner: null,
    communication_disabled_until: null,
    flags: 0,
    joined_at: m.joinedAt,
    nick: m.nick,
    pending: false,
    premium_since: null,
    roles: [...m.roles],
    user: userObject(state.users.get(m.userId)!),
    mute: false,
    deaf: false,
  };
}

export function channelObject(c: SimChannel) {
  return {
    id: c.id,
    type: c.type,
    guild_id: c.guildId,
    name: c.name,
    position: c.position,
    flags: 0,
    parent_id: null,
    topic: c.topic,
    nsfw: false,
    last_message_id: c.lastMessageId,
    rate_limit_per_user: 0,
    permission_overwrites: (c.permissionOverwrites ?? []).map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow.toString(),
      deny: o.deny.toString(),
    })),
  };
}

/** Roles in Discord's API order (by position, ties by id). */
export function sortedRoles(g: SimGuild): SimRole[] {
  return [...g.roles.values()].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

export function guildObject(g: SimGuild, withCounts: boolean) {
  return {
    id: g.id,
    name: g.name,
    icon: g.icon,
    description: g.description,
    home_header: null,
    splash: null,
    discovery_splash: null,
    features: [],
    banner: null,
    owner_id: g.ownerId,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    system_channel_id: [...g.channels.keys()][0] ?? null,
    system_channel_flags: 0,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 1,
    roles: sortedRoles(g).map(roleObject),
    default_message_notifications: 1,
    mfa_level: 0,
    explicit_content_filter: 2,
    max_presences: null,
    max_members: 500_000,
    max_stage_video_channel_users: 50,
    max_video_channel_users: 25,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    rules_channel_id: null,
    safety_alerts_channel_id: null,
    public_updates_channel_id: null,
    premium_progress_bar_enabled: false,
    nsfw: false,
    nsfw_level: 0,
    emojis: [],
    stickers: [],
    incidents_data: null,
    ...(withCounts
      ? {
          approximate_member_count: g.members.size,
          approximate_presence_count: Math.ceil(g.members.size / 3),
        }
      : {}),
  };
}

/** An entry of `GET /users/@me/guilds`. */
export function myGuildObject(state: DiscordState, g: SimGuild, userId: string, withCounts: boolean) {
  return {
    id: g.id,
    name: g.name,
    icon: g.icon,
    banner: null,
    owner: g.ownerId === userId,
    permissions: state.permissionsOf(g, userId).toString(),
    features: [],
    ...(withCounts
      ? {
          approximate_member_count: g.members.size,
          approximate_presence_count: Math.ceil(g.members.size / 3),
        }
      : {}),
  };
}

export function messageObject(state: DiscordState, m: SimMessage) {
  return {
    type: m.interactionId ? 20 : 0,
    content: m.content,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: m.embeds,
    timestamp: m.timestamp,
    edited_timestamp: m.editedTimestamp,
    flags: m.flags,
    components: m.components,
    id: m.id,
    channel_id: m.channelId,
    author: userObject(state.users.get(m.authorId)!),
    pinned: false,
    mention_everyone: false,
    tts: false,
    ...(m.nonce !== undefined ? { nonce: m.nonce } : {}),
    ...(m.webhookId ? { webhook_id: m.webhookId, application_id: m.webhookId } : {}),
  };
}

export function commandObject(c: SimCommand) {
  return {
    id: c.id,
    application_id: c.applicationId,
    version: c.version,
    default_member_permissions: c.defaultMemberPermissions,
    type: c.type,
    name: c.name,
    name_localizations: c.nameLocalizations,
    description: c.description,
    description_localizations: c.descriptionLocalizations,
    ...(c.guildId ? { guild_id: c.guildId } : {}),
    ...(c.options.length ? { options: c.options } : {}),
    dm_permission: c.contexts ? c.contexts.includes(1) : true,
    contexts: c.contexts,
    integration_types: c.integrationTypes,
    nsfw: c.nsfw,
  };
}
