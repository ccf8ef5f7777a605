import { EventEmitter } from 'node:events';
import { discordApp } from '../demo.js';
import { unknownChannel, unknownGuild } from './errors.js';
import { DEFAULT_PRIVILEGED_INTENTS } from './intents.js';
import { OAuthStore } from './oauth-store.js';
import { ALL_PERMISSIONS, Permission } from './permissions.js';
import { buildSeed } from './seed.js';
import type {
  RoleConnectionMetadata,
  SimChannel,
  SimCommand,
  SimGuild,
  SimInteraction,
  SimMessage,
  SimUser,
  UserRoleConnection,
} from './types.js';

function defaultConfig(): DiscordConfig {
  return {
    oauthCodeTtlMs: 100_000,
    interactionAckWindowMs: 3_000,
    interactionTokenTtlMs: 15 * 60_000,
    redirectUris: [],
    privilegedIntents: DEFAULT_PRIVILEGED_INTENTS,
    requestMembersIntervalMs: 30_000,
    globalRateLimitPerSecond: 50,
    invalidRequestLimit: 10_000,
    invalidRequestWindowMs: 10 * 60_000,
    invalidRequestBanMs: 60 * 60_000,
    maxGuildsPerShard: 2500,
    recommendedGuildsPerShard: 1000,
    maxConcurrency: 1,
    identifyWindowMs: 5000,
    sessionStartLimitTotal: 1000,
    gatewaySendLimit: 120,
    gatewaySendWindowMs: 60_000,
  };
}

/** The gateway's sharding and identify limits (SimulatorOptions.discordGateway). */
export type GatewayLimits = Pick<
  DiscordConfig,
  | 'maxGuildsPerShard'
  | 'recommendedGuildsPerShard'
  | 'maxConcurrency'
  | 'identifyWindowMs'
  | 'sessionStartLimitTotal'
  | 'gatewaySendLimit'
  | 'gatewaySendWindowMs'
>;

/** A gateway dispatch; `guildId` lets the gateway drop events for guilds the bot is not in. */
export interface DispatchEvent {
  t: string;
  d: unknown;
  guildId?: string;
}

/** Knobs tests and the control API may turn at runtime. */
export interface DiscordConfig {
  /** Authorization codes expire this long after issue (Discord: about 100 s). */
  oauthCodeTtlMs: number;
  /** The bot must send the initial interaction callback within this window (Discord: 3 s). */
  interactionAckWindowMs: number;
  /** Interaction tokens stay usable for follow-ups this long (Discord: 15 min). */
  interactionTokenTtlMs: number;
  /**
   * The OAuth2 redirect URIs registered for the application (developer portal → OAuth2 → Redirects). A new
   * application has none, and the authorize page refuses any other (as Discord does); null accepts any absolute
   * http(s) URI (a test that is about something else may say so).
   */
  redirectUris: string[] | null;
  /** Privileged intents enabled for the application in the (simulated) developer portal. */
  privilegedIntents: number;
  /** Op 8 for every member of a guild is allowed once per guild per this window (Discord: 30 s). */
  requestMembersIntervalMs: number;
  /** REST requests per second per bot token, or per IP without one (Discord: 50). */
  globalRateLimitPerSecond: number;
  /** 401/403/429 answers per IP within the window that lead to a temporary ban (Discord: 10,000 per 10 min). */
  invalidRequestLimit: number;
  invalidRequestWindowMs: number;
  /** How long the ban lasts (Discord: "an hour or a day"). */
  invalidRequestBanMs: number;
  /** The most guilds one gateway session may hold; an IDENTIFY past it is closed with 4011 (Discord: 2,500). */
  maxGuildsPerShard: number;
  /** `GET /gateway/bot` recommends one shard per this many guilds (Discord: 1,000). */
  recommendedGuildsPerShard: number;
  /** `session_start_limit.max_concurrency`: identify buckets (Discord: 1, more for large bots). */
  maxConcurrency: number;
  /** One IDENTIFY per bucket per this window, op 9 otherwise (Discord: 5 s; shortened by the time scale). */
  identifyWindowMs: number;
  /** `session_start_limit.total`: IDENTIFYs per 24 h (Discord: 1,000 for most bots). */
  sessionStartLimitTotal: number;
  /** Payloads a client may send per connection per window; past it the connection closes with 4008 (Discord: 120 per 60 s). */
  gatewaySendLimit: number;
  /** The send limit's window (Discord: 60 s; shortened by the time scale). */
  gatewaySendWindowMs: number;
}

/** The whole simulated Discord for one simulator instance, plus the event bus the gateway listens on. */
export class DiscordState {
  readonly users: Map<string, SimUser>;
  readonly guilds: Map<string, SimGuild>;
  readonly commands = new Map<string, SimCommand>();
  roleConnectionMetadata: RoleConnectionMetadata[] = [];
  /** By user id (one application). */
  readonly roleConnections = new Map<string, UserRoleConnection>();
  /** By channel id, oldest first. */
  readonly messages = new Map<string, SimMessage[]>();
  readonly interactions = new Map<string, SimInteraction>();
  /** `enforce_nonce`: by "author:nonce", oldest first (messages.ts). */
  readonly messageNonces = new Map<string, { messageId: string; channelId: string; at: number }>();
  oauth = new OAuthStore();
  readonly bus = new EventEmitter();
  readonly config: DiscordConfig = defaultConfig();
  /** IDENTIFYs counted against `config.sessionStartLimitTotal` until `resetAt` (gateway-shards.ts). */
  readonly sessionStartLimit = { used: 0, resetAt: Date.now() + 86_400_000 };
  /** How many servers the control API's bulk-guilds call has made (numbers their names and ids). */
  bulkGuilds = 0;
  /** API routes registered under /api, for the "every route is in the spec" contract test. */
  readonly apiRoutes: { method: string; url: string }[] = [];

  /** Every Discord window and reset (rate limits, bans, op 8's interval) is this many times shorter. */
  /**
   * @param gatewayLimits the application's gateway limits over Discord's (sharding, identify buckets, session
   *   start limit); they belong to the application, so a reset keeps them.
   */
  constructor(
    readonly timeScale = 1,
    private readonly gatewayLimits: Partial<GatewayLimits> = {},
  ) {
    Object.assign(this.config, gatewayLimits);
    const seed = buildSeed();
    this.users = seed.users;
    this.guilds = seed.guilds;
    this.bus.setMaxListeners(0);
  }

  /** Back to the seeded world (the gateway drops its sessions separately). */
  reset(): void {
    const seed = buildSeed();
    this.users.clear();
    for (const [id, u] of seed.users) this.users.set(id, u);
    this.guilds.clear();
    for (const [id, g] of seed.guilds) this.guilds.set(id, g);
    this.bulkGuilds = 0;
    this.commands.clear();
    this.roleConnectionMetadata = [];
    this.roleConnections.clear();
    this.messages.clear();
    this.messageNonces.clear();
    this.interactions.clear();
    this.oauth = new OAuthStore();
    // The application's registration is the developer portal's, not the world's: the redirects stay registered.
    const { redirectUris } = this.config;
    Object.assign(this.config, defaultConfig(), this.gatewayLimits, { redirectUris });
  }

  get botUser(): SimUser {
    return this.users.get(discordApp.botUserId)!;
  }

  requireGuild(id: string): SimGuild {
    const guild = this.guilds.get(id);
    if (!guild) throw unknownGuild();
    return guild;
  }

  channel(id: string): { guild: SimGuild; channel: SimChannel } | undefined {
    for (const guild of this.guilds.values()) {
      const channel = guild.channels.get(id);
      if (channel) return { guild, channel };
    }
    return undefined;
  }

  requireChannel(id: string): { guild: SimGuild; channel: SimChannel } {
    const found = this.channel(id);
    if (!found) throw unknownChannel();
    return found;
  }

  isBotIn(guild: SimGuild): boolean {
    return guild.members.has(discordApp.botUserId);
  }

  botGuilds(): SimGuild[] {
    return [...this.guilds.values()].filter((g) => this.isBotIn(g));
  }

  guildsOf(userId: string): SimGuild[] {
    return [...this.guilds.values()].filter((g) => g.members.has(userId));
  }

  /** Guild-level permissions: owner and Administrator get everything. */
  permissionsOf(guild: SimGuild, userId: string): bigint {
    if (guild.ownerId === userId) return ALL_PERMISSIONS;
    const member = guild.members.get(userId);
    if (!member) return 0n;
    let perms = guild.roles.get(guild.id)?.permissions ?? 0n;
    for (const roleId of member.roles) perms |= guild.roles.get(roleId)?.permissions ?? 0n;
    return (perms & Permission.Administrator) !== 0n ? ALL_PERMISSIONS : perms;
  }

  /** Position of the member's highest role (0 = only @everyone). */
  highestPosition(guild: SimGuild, userId: string): number {
    const member = guild.members.get(userId);
    if (!member) return -1;
    return Math.max(0, ...member.roles.map((id) => guild.roles.get(id)?.position ?? 0));
  }

  dispatch(t: string, d: unknown, guildId?: string): void {
    this.bus.emit('dispatch', { t, d, guildId } satisfies DispatchEvent);
  }

  channelMessages(channelId: string): SimMessage[] {
    let list = this.messages.get(channelId);
    if (!list) {
      list = [];
      this.messages.set(channelId, list);
    }
    return list;
  }
}
