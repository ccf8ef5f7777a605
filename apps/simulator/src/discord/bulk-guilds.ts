import { discordApp } from '../demo.js';
import { bulkAddMembers, usernamesOf } from './bulk-members.js';
import { ControlError } from './errors.js';
import { Permission } from './permissions.js';
import { BOT_ROLE_PERMS, EVERYONE_PERMS, MOD_PERMS } from './seed.js';
import { DISCORD_EPOCH } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimChannel, SimGuild, SimRole } from './types.js';

/**
 * Scale seeding: many servers at once, each with an owner, the usual roles, two channels and, by
 * default, the bot (as if installed through the consent page: its managed role and member). The bot
 * hears GUILD_CREATE for each when connected, as on Discord; members come silently (bulk-members).
 * Deterministic: ids and names follow the running number of bulk servers.
 */

export const BULK_GUILDS_MAX = 5_000;
/** Members made by one bulk-guilds call in all (membersPerGuild × count). */
export const BULK_GUILD_MEMBERS_MAX = 2_000_000;

/** Highest first; the bot's managed role sits under the staff roles, above those it manages. */
const ROLES = [
  { key: 'admin', name: 'Admin', color: 0xe74c3c, permissions: Permission.Administrator, hoist: true },
  { key: 'moderator', name: 'Moderator', color: 0x3498db, permissions: MOD_PERMS, hoist: true },
  { key: 'bot', name: discordApp.botUsername, color: 0, permissions: BOT_ROLE_PERMS, hoist: false },
  { key: 'verified', name: 'Verified', color: 0x2ecc71, permissions: 0n, hoist: false },
  { key: 'eventHost', name: 'Event Host', color: 0xf1c40f, permissions: 0n, hoist: false },
  { key: 'member', name: 'Member', color: 0x95a5a6, permissions: 0n, hoist: false },
  { key: 'guest', name: 'Guest', color: 0x7f8c8d, permissions: 0n, hoist: false },
] as const;

type RoleKey = (typeof ROLES)[number]['key'];

export interface BulkGuildsOptions {
  count: number;
  /** Install the bot in each (default true). */
  withBot?: boolean;
  /** Bulk members per server (new users; default 0). */
  membersPerGuild?: number;
}

export interface BulkGuild {
  id: string;
  name: string;
  ownerId: string;
  /** By key; `bot` is missing without the bot (no managed role then). */
  roleIds: Partial<Record<RoleKey, string>>;
  channels: { general: string; botLog: string };
}

/**
 * Snowflakes about a second apart from 2022, with a worker id (31) of their own: no runtime id collides. The
 * milliseconds within each second vary (as real creation times do), so the servers spread over gateway shards
 * (`(id >> 22) % shards`) as Discord's do; whole seconds would put every one on the same shard of an even count.
 */
const BULK_TIME = Date.UTC(2022, 0, 1);
const WORKER = 31n << 17n;
const bulkId = (seq: number, n: number) =>
  (
    (BigInt(BULK_TIME + seq * 1000 + ((seq * 7919) % 1000)) - DISCORD_EPOCH) * 4_194_304n +
    WORKER +
    BigInt(n)
  ).toString();

export function bulkCreateGuilds(
  state: DiscordState,
  opts: BulkGuildsOptions,
): { created: number; guilds: BulkGuild[]; elapsedMs: number } {
  const started = performance.now();
  const { count, withBot = true, membersPerGuild = 0 } = opts;
  if (count * membersPerGuild > BULK_GUILD_MEMBERS_MAX)
    throw new ControlError(400, `At most ${BULK_GUILD_MEMBERS_MAX} members in all per call.`);
  const taken = usernamesOf(state);
  const guilds: BulkGuild[] = [];
  for (let i = 0; i < count; i++) {
    state.bulkGuilds += 1;
    const seq = state.bulkGuilds;
    const number = String(seq).padStart(4, '0');
    const id = bulkId(seq, 0);
    const at = new Date(BULK_TIME + seq * 1000).toISOString();
    const ownerId = bulkId(seq, 1);
    const username = `bulk_owner_${number}`;
    taken.add(username);
    state.users.set(ownerId, {
      id: ownerId,
      username,
      globalName: `Bulk Owner ${number}`,
      avatar: null,
      bot: false,
      email: `${username}@users.discord.test`,
      locale: 'en-US',
      mfaEnabled: true,
    });
    const roles = new Map<string, SimRole>();
    roles.set(id, {
      id,
      name: '@everyone',
      color: 0,
      position: 0,
      permissions: EVERYONE_PERMS,
      hoist: false,
      managed: false,
      mentionable: false,
    });
    const ladder = ROLES.filter((r) => withBot || r.key !== 'bot');
    const roleIds: BulkGuild['roleIds'] = {};
    ladder.forEach((r, n) => {
      const roleId = bulkId(seq, 10 + n);
      roleIds[r.key] = roleId;
      const bot = r.key === 'bot';
      roles.set(roleId, {
        id: roleId,
        name: r.name,
        color: r.color,
        position: ladder.length - n,
        permissions: r.permissions,
        hoist: r.hoist,
        managed: bot,
        mentionable: false,
        ...(bot ? { botId: discordApp.botUserId } : {}),
      });
    });
    const channels = new Map<string, SimChannel>();
    const general = bulkId(seq, 2);
    const botLog = bulkId(seq, 3);
    for (const [position, channelId] of [general, botLog].entries())
      channels.set(channelId, {
        id: channelId,
        guildId: id,
        name: position === 0 ? 'general' : 'bot-log',
        type: 0,
        position,
        topic: null,
        lastMessageId: null,
      });
    const guild: SimGuild = {
      id,
      name: `Bulk Server ${number}`,
      description: `Scale-test server ${number}.`,
      icon: null,
      ownerId,
      roles,
      members: new Map([[ownerId, { userId: ownerId, nick: null, roles: [roleIds.admin!], joinedAt: at }]]),
      channels,
    };
    if (withBot)
      guild.members.set(discordApp.botUserId, {
        userId: discordApp.botUserId,
        nick: null,
        roles: [roleIds.bot!],
        joinedAt: at,
      });
    state.guilds.set(id, guild);
    if (membersPerGuild) bulkAddMembers(state, guild, { count: membersPerGuild, taken });
    // As when the bot joins a server: a connected bot hears of it (dropped unless the bot is in it).
    state.dispatch('GUILD_CREATE', { id }, id);
    guilds.push({ id, name: guild.name, ownerId, roleIds, channels: { general, botLog } });
  }
  return { created: count, guilds, elapsedMs: Math.round(performance.now() - started) };
}
