import { globalNameFor, hexHash, mulberry32, nickFor, type Random, usernameParts } from './bulk-names.js';
import { ControlError } from './errors.js';
import { membersChanged } from './member-index.js';
import { Permission } from './permissions.js';
import { DISCORD_EPOCH } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { SimGuild, SimRole } from './types.js';

/**
 * Bulk seeding for scale tests: many members at once, silently (no GUILD_MEMBER_ADD), like people
 * who joined while the bot was away. Deterministic per guild and call, so runs are comparable.
 */

export const BULK_MAX = 200_000;
/** Discord's member cap per guild (`max_members`). */
const GUILD_MAX_MEMBERS = 500_000;
const YEAR = 365.25 * 86_400_000;
/** Staff roles are handed out by hand: about one member in 2,000 holds one. */
const STAFF_SHARE = 1 / 2000;
const STAFF_PERMS =
  Permission.Administrator |
  Permission.ManageGuild |
  Permission.ManageRoles |
  Permission.KickMembers |
  Permission.BanMembers |
  Permission.ModerateMembers;
/** Worker id bits of the generated snowflakes, apart from the runtime's (1 << 17). */
const BULK_WORKER = 30n << 17n;
const LOCALES = ['en-US', 'en-US', 'en-US', 'en-GB', 'ja', 'de', 'fr', 'es-ES', 'pt-BR', 'ko'];

const seeds = new WeakMap<SimGuild, number>();

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Knuth's Poisson sampler; fine for the small means used here. */
function poisson(r: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = r();
  while (p > limit) {
    k += 1;
    p *= r();
  }
  return k;
}

/** Up to `k` distinct roles, lower roles more likely (weight 1/√rank from the bottom). */
function pickRoles(r: Random, roles: SimRole[], weights: number[], k: number): string[] {
  if (k === 0) return [];
  const chosen: string[] = [];
  const pool = roles.map((role, i) => ({ role, w: weights[i] }));
  let total = pool.reduce((sum, e) => sum + e.w, 0);
  for (let n = 0; n < k && pool.length; n++) {
    let x = r() * total;
    let i = 0;
    while (i < pool.length - 1 && x >= pool[i].w) x -= pool[i++].w;
    chosen.push(pool[i].role.id);
    total -= pool[i].w;
    pool.splice(i, 1);
  }
  return chosen;
}

function snowflakeAt(ms: number, seq: number): string {
  return (
    (BigInt(Math.floor(ms)) - DISCORD_EPOCH) * 4_194_304n +
    BULK_WORKER +
    BigInt(seq & 0xfff)
  ).toString();
}

export interface BulkResult {
  created: number;
  memberCount: number;
  elapsedMs: number;
}

export interface BulkOptions {
  count: number;
  /** Average roles per member (Poisson), default 1. */
  rolesPerMember?: number;
  /** Spread only these roles (no staff share); default every non-managed role but @everyone. */
  roleIds?: string[];
  /**
   * Every username in use, kept up to date by the call (bulk-guilds passes one set to all its calls
   * instead of letting each gather the usernames of every user again).
   */
  taken?: Set<string>;
}

export function bulkAddMembers(state: DiscordState, guild: SimGuild, opts: BulkOptions): BulkResult {
  const { count, rolesPerMember = 1 } = opts;
  const started = performance.now();
  if (guild.members.size + count > GUILD_MAX_MEMBERS)
    throw new ControlError(409, `A guild holds at most ${GUILD_MAX_MEMBERS} members.`);
  const call = (seeds.get(guild) ?? 0) + 1;
  seeds.set(guild, call);
  const r = mulberry32(hashString(`${guild.id}:${call}`));

  for (const id of opts.roleIds ?? [])
    if (!guild.roles.has(id) || id === guild.id) throw new ControlError(404, `Unknown role ${id}.`);
  const assignable = [...guild.roles.values()]
    .filter((role) => (opts.roleIds ? opts.roleIds.includes(role.id) : role.id !== guild.id && !role.managed))
    .sort((a, b) => a.position - b.position);
  // Staff roles (moderation or admin permissions) go to a handful, unless the caller chose the roles.
  const isStaff = (role: SimRole) => !opts.roleIds && (role.permissions & STAFF_PERMS) !== 0n;
  const ordinary = assignable.filter((role) => !isStaff(role));
  const staff = assignable.filter(isStaff);
  const weights = ordinary.map((_, i) => 1 / Math.sqrt(i + 1));

  const taken = opts.taken ?? usernamesOf(state);
  const now = Date.now();
  const epoch = Number(DISCORD_EPOCH);

  for (let i = 0; i < count; i++) {
    const parts = usernameParts(r);
    let username = parts.username;
    while (taken.has(username) || username.length < 2)
      username = `${parts.username.slice(0, 26)}${Math.floor(r() * 100_000)}`;
    taken.add(username);
    const globalName = globalNameFor(r, parts);

    // Joined over the last five years, more of them recently; accounts are older than their joins.
    const joined = now - 5 * YEAR * r() ** 1.6;
    let created = Math.max(epoch + YEAR / 3, joined - 4 * YEAR * r());
    let id = snowflakeAt(created, i);
    while (state.users.has(id)) id = snowflakeAt(++created, i);

    state.users.set(id, {
      id,
      username,
      globalName,
      avatar: r() < 0.75 ? hexHash(r) : null,
      bot: false,
      email: `${username.replace(/\./g, '_')}@users.discord.test`,
      locale: LOCALES[Math.floor(r() * LOCALES.length)],
      mfaEnabled: r() < 0.3,
    });
    const roles = pickRoles(r, ordinary, weights, Math.min(ordinary.length, poisson(r, rolesPerMember)));
    if (staff.length && r() < STAFF_SHARE) roles.push(staff[Math.floor(r() * staff.length)].id);
    guild.members.set(id, {
      userId: id,
      nick: nickFor(r, globalName ?? username),
      roles,
      joinedAt: new Date(joined).toISOString(),
    });
  }
  membersChanged(guild);
  return {
    created: count,
    memberCount: guild.members.size,
    elapsedMs: Math.round(performance.now() - started),
  };
}

export function usernamesOf(state: DiscordState): Set<string> {
  const taken = new Set<string>();
  for (const u of state.users.values()) taken.add(u.username);
  return taken;
}
