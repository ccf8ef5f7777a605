/** In-memory shapes of the simulated Discord world; serialize.ts turns them into API objects. */

export interface SimUser {
  id: string;
  username: string;
  globalName: string | null;
  avatar: string | null;
  bot: boolean;
  email: string | null;
  locale: string;
  mfaEnabled: boolean;
}

export interface SimRole {
  id: string;
  name: string;
  color: number;
  position: number;
  permissions: bigint;
  hoist: boolean;
  managed: boolean;
  mentionable: boolean;
  /** Set on the managed role Discord creates for a bot when it joins. */
  botId?: string;
}

export interface SimMember {
  userId: string;
  nick: string | null;
  roles: string[];
  joinedAt: string;
}

export interface SimChannel {
  id: string;
  guildId: string;
  name: string;
  type: 0;
  position: number;
  topic: string | null;
  lastMessageId: string | null;
  /** Channel overrides of role (type 0) or member (type 1) permissions; none on seeded channels. */
  permissionOverwrites?: SimOverwrite[];
}

/** One permission overwrite of a channel, as Discord keeps them. */
export interface SimOverwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface SimGuild {
  id: string;
  name: string;
  description: string | null;
  icon: string | null;
  ownerId: string;
  roles: Map<string, SimRole>;
  members: Map<string, SimMember>;
  channels: Map<string, SimChannel>;
  /** Banned user ids (a banned user cannot join). */
  bans?: Set<string>;
}

export interface SimMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  content: string;
  embeds: Record<string, unknown>[];
  components: unknown[];
  flags: number;
  /** The nonce the sender gave (Discord echoes it in the created message). */
  nonce?: string | number;
  timestamp: string;
  editedTimestamp: string | null;
  /** Messages sent through an interaction webhook carry the application id as webhook id. */
  webhookId?: string;
  interactionId?: string;
}

export interface SimCommand {
  id: string;
  applicationId: string;
  guildId: string | null;
  version: string;
  type: number;
  name: string;
  description: string;
  options: CommandOption[];
  defaultMemberPermissions: string | null;
  contexts: number[] | null;
  integrationTypes: number[];
  nsfw: boolean;
  nameLocalizations: Record<string, string> | null;
  descriptionLocalizations: Record<string, string> | null;
}

export interface CommandOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  options?: CommandOption[];
  choices?: { name: string; value: string | number }[];
  [key: string]: unknown;
}

export interface RoleConnectionMetadata {
  type: number;
  key: string;
  name: string;
  description: string;
  name_localizations?: Record<string, string> | null;
  description_localizations?: Record<string, string> | null;
}

export interface UserRoleConnection {
  platformName: string | null;
  platformUsername: string | null;
  metadata: Record<string, string>;
}

/** An option as it arrives in INTERACTION_CREATE. */
export interface InteractionOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: InteractionOption[];
}

export interface SimInteraction {
  id: string;
  token: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  userId: string;
  commandId: string;
  commandName: string;
  options: InteractionOption[];
  createdAt: number;
  /** The initial callback (type 4 message, 5 deferred, 9 modal…), null until the bot answers. */
  callback: { type: number; data: Record<string, unknown> | null; at: string } | null;
  original: SimMessage | null;
  followups: SimMessage[];
  ephemeral: boolean;
  /** Gateway sessions the interaction was dispatched to. */
  deliveredTo: number;
}
