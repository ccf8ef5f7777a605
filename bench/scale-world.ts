/**
 * The world of the scale bench (bench/scale.ts): many servers in the simulator with a realistic spread of
 * members, one manager who is a member of many of them, and linked accounts. Seeded through the simulator's
 * control routes (bulk-guilds, users, members), as a test would; the links are rows of the product's database.
 * The process whose Discord calls are counted reaches the simulator through apps/server/test/counting-proxy.ts.
 *
 * The seam for the VRChat side (issue #30 item 8): a `ScaleSide` seeds its part of the same world before the
 * processes start, gives them its environment, and adds its rows to the report. The Discord side is built
 * in (this file and bench/scale.ts); a VRChat side (1,100 linked groups over several bot accounts) is one
 * more `ScaleSide` passed to `runScaleBench`.
 */
import { vrchatAccounts } from '@vrclink/simulator';
import type { Database } from '../apps/server/src/db/client.js';
import { callSimulatorControl } from '../apps/server/src/platforms/testing.js';

/** One measured figure of the report: what, the value as printed, and the target when there is one. */
export interface ScaleRow {
  what: string;
  value: string;
  /** The target as printed and whether it is met; absent for figures without a target. */
  target?: { text: string; met: boolean };
}

/** What a side of the world can reach once the processes run. */
export interface ScaleRun {
  simulatorUrl: string;
  db: Database;
  world: ScaleWorld;
  /** Base URLs of the `api` process and of the `bot,worker` process's health port. */
  apiUrl: string;
  botHealthUrl: string;
}

/**
 * A side of the world (Discord is built in). `seed` runs after the Discord servers exist and before any
 * product process starts; `env` is added to both processes' environment; `measure` runs after the Discord
 * side's measurements, with every process still up, and returns rows for the report.
 */
export interface ScaleSide {
  name: string;
  seed(simulatorUrl: string, world: ScaleWorld): Promise<void>;
  env(): Record<string, string>;
  measure(run: ScaleRun): Promise<ScaleRow[]>;
}

export interface ScaleGuild {
  id: string;
  name: string;
  members: number;
  roleIds: { admin: string };
}

export interface ScaleWorld {
  guilds: ScaleGuild[];
  totalMembers: number;
  /** The person signed in for the reads: a Discord user holding Admin in `managerGuildIds`. */
  managerId: string;
  managerGuildIds: string[];
  /** The server whose page is read: the largest the manager manages. */
  pageGuildId: string;
}

/**
 * Members per server for `servers` servers and about `total` members in all: Zipf's law (the i-th largest
 * holds total / (H·i)), at least `min` each. Mostly small servers and a few large ones: at 1,100 servers
 * and 150,000 members the largest holds about 19,800, the tenth 2,000, the hundredth 200, the last 18.
 * Largest first; the sum is `total` exactly unless the minimum forces more.
 */
export function memberSizes(servers: number, total: number, min = 5): number[] {
  let harmonic = 0;
  for (let i = 1; i <= servers; i++) harmonic += 1 / i;
  const sizes = Array.from({ length: servers }, (_, i) =>
    Math.max(min, Math.round(total / (harmonic * (i + 1)))),
  );
  const sum = sizes.reduce((a, b) => a + b, 0);
  sizes[0] = Math.max(min, sizes[0]! + total - sum);
  return sizes;
}

/**
 * Sizes grouped into runs of equal size (each one `POST /bulk-guilds` call), rounded to a geometric ladder
 * (steps of `step`) below the largest `exact` servers, so 1,100 servers take a few dozen calls, not 1,100.
 * The total changes by the rounding only (a percent or two).
 */
export function sizeTiers(sizes: number[], exact = 20, step = 1.15): { size: number; count: number }[] {
  const tiers: { size: number; count: number }[] = [];
  sizes.forEach((size, i) => {
    const rounded = i < exact ? size : Math.round(step ** Math.round(Math.log(size) / Math.log(step)));
    const last = tiers.at(-1);
    if (last && last.size === rounded) last.count++;
    else tiers.push({ size: rounded, count: 1 });
  });
  return tiers;
}

async function control<T>(simulatorUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await callSimulatorControl(simulatorUrl, method, path, body);
  if (res.status >= 300)
    throw new Error(`simulator ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/**
 * Seeds `servers` bulk servers with about `totalMembers` members spread by `memberSizes`, the bot in each,
 * and a manager who holds Admin in `managerServers` of them (the largest, then every n-th). Silent for the
 * members (bulk), so start the product processes after this, as after a restart.
 */
export async function seedDiscordWorld(
  simulatorUrl: string,
  opts: { servers: number; totalMembers: number; managerServers: number },
): Promise<ScaleWorld> {
  const guilds: ScaleGuild[] = [];
  for (const tier of sizeTiers(memberSizes(opts.servers, opts.totalMembers))) {
    // One call holds at most 2,000,000 members and 5,000 servers.
    let left = tier.count;
    while (left > 0) {
      const count = Math.min(left, 5_000, Math.max(1, Math.floor(2_000_000 / tier.size)));
      const made = await control<{ guilds: { id: string; name: string; roleIds: { admin: string } }[] }>(
        simulatorUrl,
        'POST',
        '/discord/bulk-guilds',
        { count, membersPerGuild: tier.size },
      );
      for (const g of made.guilds)
        guilds.push({ id: g.id, name: g.name, members: tier.size, roleIds: { admin: g.roleIds.admin } });
      left -= count;
    }
  }
  const manager = await control<{ id: string }>(simulatorUrl, 'POST', '/discord/users', {
    username: 'scale_manager',
    globalName: 'Scale Manager',
  });
  const every = Math.max(1, Math.floor(guilds.length / opts.managerServers));
  const managed = guilds.filter((_, i) => i % every === 0).slice(0, opts.managerServers);
  for (const g of managed)
    await control(simulatorUrl, 'POST', `/discord/guilds/${g.id}/members`, {
      userId: manager.id,
      roles: [g.roleIds.admin],
    });
  return {
    guilds,
    totalMembers: guilds.reduce((sum, g) => sum + g.members, 0),
    managerId: manager.id,
    managerGuildIds: managed.map((g) => g.id),
    pageGuildId: managed[0]!.id,
  };
}

/**
 * The server page's VRChat tab needs a linked group (`/guild_roles` answers 404 without one): one bulk group
 * with the product's bot account in it (the simulator's `POST /vrchat/bulk-groups`), linked to `guildId` in the
 * database as the link flow would leave it. The VRChat side (issue #30) links a group to every server instead.
 */
export async function linkPageGroup(simulatorUrl: string, db: Database, guildId: string): Promise<string> {
  const made = await control<{ groups: { id: string; name: string }[] }>(
    simulatorUrl,
    'POST',
    '/vrchat/bulk-groups',
    { count: 1, botUserIds: [vrchatAccounts.bot.userId] },
  );
  const group = made.groups[0]!;
  await db.executeSql('insert into guild_groups (guild_id, group_id, name) values ($1, $2, $3)', [
    guildId,
    group.id,
    group.name,
  ]);
  return group.id;
}

/**
 * `count` links between members of the mirror and made-up VRChat accounts, spread over every server (a hash
 * order over the distinct members), written straight into `vrchat_links` as if each had verified long ago.
 * Returns how many were written (fewer when the world has fewer people). A VRChat side that needs the
 * VRChat accounts to exist in its simulator links its own instead.
 */
export async function linkMembers(db: Database, count: number): Promise<number> {
  await db.executeSql(
    `insert into vrchat_links (discord_user_id, vrc_user_id, vrchat_name, is_verified, verified_at)
     select user_id,
            'usr_' || substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' ||
              substr(h, 17, 4) || '-' || substr(h, 21, 12),
            'vrc_' || username, true, now()
       from (select distinct on (user_id) user_id, username, md5('scale:' || user_id) as h
               from guild_members where not bot order by user_id) people
      order by h
      limit $1
     on conflict do nothing`,
    [count],
  );
  const { rows } = await db.executeSql('select count(*)::int as n from vrchat_links');
  return Number(rows[0]?.n);
}

/** A process's resident set size in bytes (Linux `/proc`), or undefined when it cannot be read. */
export async function rssOf(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  try {
    const { readFile } = await import('node:fs/promises');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
