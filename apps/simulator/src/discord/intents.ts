/** Gateway intents and the application's privileged-intent settings (developer portal → Bot). */

export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  /** GUILD_BAN_ADD / GUILD_BAN_REMOVE (not privileged). */
  GuildModeration: 1 << 2,
  GuildPresences: 1 << 8,
  GuildMessages: 1 << 9,
  MessageContent: 1 << 15,
} as const;

/** GUILD_PRESENCES | GUILD_MEMBERS | MESSAGE_CONTENT. */
export const PRIVILEGED_INTENTS = Intent.GuildPresences | Intent.GuildMembers | Intent.MessageContent;

/** Every intent bit Discord defines (0–16, 20, 21, 24, 25); anything else is "invalid intents" (4013). */
export const VALID_INTENTS = 0b11_0011_0001_1111_1111_1111_1111;

/**
 * What a new unverified app gets after the developer switched on "Server Members Intent" only:
 * the product needs it, presences and message content it does not.
 */
export const DEFAULT_PRIVILEGED_INTENTS = Intent.GuildMembers;

/** Application flags Discord sets for an unverified app's enabled privileged intents. */
export const AppFlag = {
  GatewayPresenceLimited: 1 << 13,
  GatewayGuildMembersLimited: 1 << 15,
  GatewayMessageContentLimited: 1 << 19,
} as const;

/** `flags` of the application object (GET /applications/@me, READY's `application.flags`). */
export function applicationFlags(enabled: number): number {
  return (
    (enabled & Intent.GuildPresences ? AppFlag.GatewayPresenceLimited : 0) |
    (enabled & Intent.GuildMembers ? AppFlag.GatewayGuildMembersLimited : 0) |
    (enabled & Intent.MessageContent ? AppFlag.GatewayMessageContentLimited : 0)
  );
}

/** The control API's view of the portal switches. */
export function intentSwitches(enabled: number) {
  return {
    guildMembersIntent: (enabled & Intent.GuildMembers) !== 0,
    guildPresencesIntent: (enabled & Intent.GuildPresences) !== 0,
    messageContentIntent: (enabled & Intent.MessageContent) !== 0,
    flags: applicationFlags(enabled),
  };
}
