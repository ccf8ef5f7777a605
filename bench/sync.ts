/**
 * The sync engine (called by `npm run bench`, or alone: `tsx bench/sync.ts`):
 * 1. the diff: `planSync` on a synthetic server of BENCH_SYNC_MEMBERS (default 100,000) members, 20 mappings,
 *    ~30 % linked, a 50,000-member group and the auto roles set (median time, rough heap), then the plan
 *    applied to that state and planned again (must be 0 actions);
 * 2. platform calls against the simulators (VRChat's simulated rate limit left on): writes and reads of a sync
 *    with k changes, of the sync right after it, and the naive 'one call per member and mapping' count;
 * 3. propagation: a Discord role given in the simulated Discord until the group role shows in the simulated
 *    VRChat group, driven by the real path (gateway event → `sync.guild` job → worker), p50/p95 over 50 changes.
 */
import '../apps/server/src/polyfills.js';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { discordGroupMappings, guildGroups, vrchatLinks } from '../apps/server/src/db/schema/index.js';
import { startJobWorker } from '../apps/server/src/jobs/worker.js';
import {
  type PlanGroup,
  type PlanMember,
  planSync,
  runGuildSync,
  type SyncAction,
  type SyncPlanInput,
} from '../apps/server/src/wings/group-sync/index.js';
import { createTestApp, type TestApp } from '../apps/server/test/app.js';

const MEMBERS = Number(process.env.BENCH_SYNC_MEMBERS ?? 100_000);
const GROUP_MEMBERS = Number(process.env.BENCH_SYNC_GROUP ?? 50_000);
const RUNS = Number(process.env.BENCH_SYNC_RUNS ?? 5);
const PROPAGATIONS = Number(process.env.BENCH_SYNC_PROPAGATIONS ?? 50);
/** Part 2: linked members holding the mapped role (and its group role) at the start, and those without it. */
const HOLDERS = 25;
const CHANGES_EACH_WAY = 5;
const OTHERS = PROPAGATIONS + CHANGES_EACH_WAY;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const out = (line = '') => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------- 1. the diff

/** Deterministic pseudo-random numbers (mulberry32), so every run plans the same server. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function syntheticInput(): SyncPlanInput {
  const rnd = random(42);
  const guildId = 'guild_bench';
  const role = (i: number) => `role_${i}`;
  const grole = (i: number) => `grol_${i}`;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const discordRoles = Array.from({ length: 40 }, (_, i) => role(i));
  const groupRoleIds = Array.from({ length: 10 }, (_, i) => grole(i));

  const members: PlanMember[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const roleIds = new Set<string>();
    // 0–3 roles each, ~1.5 on average, skewed to the low role ids (the mapped ones are popular).
    const n = Math.floor(rnd() * 4);
    for (let r = 0; r < n; r++) roleIds.add(role(Math.floor(rnd() ** 2 * discordRoles.length)));
    const linked = rnd() < 0.3;
    const ageRoll = rnd();
    members.push({
      discordUserId: `d${i}`,
      name: `Member ${i}`,
      roleIds: [...roleIds],
      link: linked
        ? {
            vrcUserId: `usr_${i}`,
            vrchatName: `VRC ${i}`,
            verified: ageRoll < 0.8,
            age: ageRoll < 0.3 ? 'Plus18' : ageRoll < 0.4 ? 'Verified' : 'Unverified',
          }
        : null,
    });
  }
  // The group: two thirds of the linked members, then people nobody linked, up to GROUP_MEMBERS.
  const groupMembers = new Map<string, string[]>();
  for (const m of members) {
    if (groupMembers.size >= GROUP_MEMBERS) break;
    if (m.link && rnd() < 0.66) groupMembers.set(m.link.vrcUserId, rnd() < 0.4 ? [pick(groupRoleIds)] : []);
  }
  for (let i = 0; groupMembers.size < GROUP_MEMBERS; i++)
    groupMembers.set(`usr_stranger_${i}`, rnd() < 0.3 ? [pick(groupRoleIds)] : []);
  const linkedOutside = members.filter((m) => m.link && !groupMembers.has(m.link.vrcUserId));
  const pendingInvites = new Set(linkedOutside.slice(0, 500).map((m) => m.link!.vrcUserId));
  const joinRequests = new Set(linkedOutside.slice(500, 800).map((m) => m.link!.vrcUserId));
  const alreadyInvited = new Set(linkedOutside.slice(800, 1300).map((m) => m.link!.vrcUserId));

  // 20 mappings: 16 Discord to group, 4 group to Discord.
  const group: PlanGroup = {
    enabled: true,
    autoRemove: false,
    members: groupMembers,
    names: new Map(),
    pendingInvites,
    joinRequests,
    alreadyInvited,
    protectedUserIds: new Set(['usr_stranger_0', 'usr_stranger_1']),
    manageableRoleIds: new Set(groupRoleIds.slice(0, 9)),
    can: { invite: true, remove: true, assignRoles: true },
    discordToGroup: [
      { discordRoleId: role(0), groupRoleId: null, action: 'Membership' },
      { discordRoleId: role(1), groupRoleId: null, action: 'Membership' },
      { discordRoleId: role(2), groupRoleId: null, action: 'Membership' },
      { discordRoleId: role(14), groupRoleId: null, action: 'Membership' },
      { discordRoleId: role(3), groupRoleId: null, action: 'NoMembership' },
      { discordRoleId: role(4), groupRoleId: grole(0), action: 'GrantRoleTemporary' },
      { discordRoleId: role(5), groupRoleId: grole(1), action: 'GrantRoleTemporary' },
      { discordRoleId: role(6), groupRoleId: grole(2), action: 'GrantRoleTemporary' },
      { discordRoleId: role(7), groupRoleId: grole(3), action: 'GrantRoleTemporary' },
      { discordRoleId: role(15), groupRoleId: grole(8), action: 'GrantRoleTemporary' },
      { discordRoleId: role(8), groupRoleId: grole(4), action: 'GrantRolePermanent' },
      { discordRoleId: role(9), groupRoleId: grole(5), action: 'GrantRolePermanent' },
      { discordRoleId: role(10), groupRoleId: grole(6), action: 'GrantRolePermanent' },
      { discordRoleId: role(11), groupRoleId: grole(0), action: 'RevokeRole' },
      { discordRoleId: role(12), groupRoleId: grole(4), action: 'RevokeRole' },
      { discordRoleId: role(13), groupRoleId: grole(7), action: 'RevokeRole' },
    ],
    groupToDiscord: [
      { groupRoleId: grole(1), discordRoleId: role(20), action: 'GrantRoleTemporary' },
      { groupRoleId: grole(5), discordRoleId: role(21), action: 'GrantRolePermanent' },
      { groupRoleId: grole(8), discordRoleId: role(22), action: 'GrantRoleTemporary' },
      { groupRoleId: grole(9), discordRoleId: role(23), action: 'GrantRolePermanent' },
    ],
  };
  return {
    guildId,
    autoRoles: { linkedRoleId: role(30), plus18RoleId: role(31), ageVerifiedRoleId: role(32) },
    // The bot may manage every role but one (role_39: a warning, never an action).
    manageableDiscordRoleIds: new Set(discordRoles.slice(0, 39)),
    members,
    group,
  };
}

/** The state after the platforms did everything the plan asked. */
function applied(input: SyncPlanInput, actions: readonly SyncAction[]): SyncPlanInput {
  const roles = new Map(input.members.map((m) => [m.discordUserId, new Set(m.roleIds)]));
  const group = input.group!;
  const gm = new Map([...group.members].map(([k, v]) => [k, new Set(v)]));
  const invites = new Set(group.pendingInvites);
  const requests = new Set(group.joinRequests);
  for (const a of actions) {
    if (a.kind === 'addDiscordRole') roles.get(a.discordUserId)!.add(a.roleId);
    else if (a.kind === 'removeDiscordRole') roles.get(a.discordUserId)!.delete(a.roleId);
    else if (a.kind === 'invite') invites.add(a.vrcUserId);
    else if (a.kind === 'acceptRequest') {
      requests.delete(a.vrcUserId);
      if (!gm.has(a.vrcUserId)) gm.set(a.vrcUserId, new Set());
    } else if (a.kind === 'remove') gm.delete(a.vrcUserId);
    else if (a.kind === 'addGroupRole') gm.get(a.vrcUserId)!.add(a.roleId);
    else if (a.kind === 'removeGroupRole') gm.get(a.vrcUserId)!.delete(a.roleId);
  }
  return {
    ...input,
    members: input.members.map((m) => ({ ...m, roleIds: [...roles.get(m.discordUserId)!] })),
    group: {
      ...group,
      members: new Map([...gm].map(([k, v]) => [k, [...v]])),
      pendingInvites: invites,
      joinRequests: requests,
    },
  };
}

function timePlan(input: SyncPlanInput) {
  const times: number[] = [];
  let result = planSync(input);
  for (let i = 0; i < RUNS; i++) {
    gc();
    const start = performance.now();
    result = planSync(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), min: times[0]!, max: times.at(-1)!, result };
}

export function benchDiff() {
  const input = syntheticInput();
  const linked = input.members.filter((m) => m.link).length;
  out(
    `Diff: ${MEMBERS.toLocaleString('en')} members (${linked.toLocaleString('en')} linked), group of ` +
      `${input.group!.members.size.toLocaleString('en')}, 20 mappings, auto roles set; median of ${RUNS} runs`,
  );
  gc();
  const before = process.memoryUsage().heapUsed;
  const first = planSync(input);
  const heap = process.memoryUsage().heapUsed - before;
  const counts: Record<string, number> = {};
  for (const a of first.actions) counts[a.kind] = (counts[a.kind] ?? 0) + 1;
  const full = timePlan(input);
  out(
    `  planSync: ${full.median.toFixed(0)} ms median (min ${full.min.toFixed(0)}, max ${full.max.toFixed(0)}), ` +
      `${first.actions.length.toLocaleString('en')} actions, ${first.warnings.length} warnings; heap +${mb(heap)} ` +
      `(live after one plan, no GC in between)`,
  );
  out(
    `  actions: ${Object.entries(counts)
      .map(([k, n]) => `${k} ${n.toLocaleString('en')}`)
      .join(', ')}`,
  );
  const settled = applied(input, first.actions);
  const again = timePlan(settled);
  out(
    `  no change (plan applied, planned again): ${again.result.actions.length} actions, ` +
      `${again.median.toFixed(0)} ms median (min ${again.min.toFixed(0)}, max ${again.max.toFixed(0)})`,
  );
}

// ---------------------------------------------------------------- 2. and 3. against the simulators

const hangout = seedGuildIds.hangout.id;
const groupId = vrchatSeed.groupIds.hangout;
const linkedGroupRole = vrchatSeed.roleIds.hangout.linked;

interface Person {
  discordUserId: string;
  vrcUserId: string;
}

async function mirrorRoles(t: TestApp, ids: string[]): Promise<Map<string, string[]>> {
  const res = await t.ctx.database.executeSql(
    'select user_id, role_ids from guild_members where guild_id = $1 and user_id = any($2) and left_at is null',
    [hangout, ids],
  );
  return new Map(res.rows.map((r) => [String(r.user_id), r.role_ids as string[]]));
}

/** Waits until the member mirror (what the sync reads) shows these roles. */
async function mirrorShows(t: TestApp, want: Map<string, string[]>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await mirrorRoles(t, [...want.keys()]);
    const ok = [...want].every(([id, roles]) => {
      const has = now.get(id);
      return has && has.length === roles.length && roles.every((r) => has.includes(r));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('the member mirror did not follow the simulated Discord');
    await sleep(50);
  }
}

async function groupRolesOf(t: TestApp): Promise<Map<string, string[]>> {
  const res = await t.control('GET', `/vrchat/groups/${groupId}`);
  const list = res.body.memberships as { userId: string; status: string; roleIds: string[] }[];
  return new Map(list.filter((m) => m.status === 'member').map((m) => [m.userId, m.roleIds]));
}

async function person(t: TestApp, i: number, memberRole: string, holder: boolean): Promise<Person> {
  const name = `Sync Bench ${i} ${randomBytes(2).toString('hex')}`;
  const user = await t.control('POST', '/vrchat/users', {
    displayName: name,
    ageVerificationStatus: 'hidden',
    ageVerified: false,
    bio: '',
  });
  if (user.status !== 201) throw new Error(`POST /vrchat/users answered ${user.status}`);
  const vrcUserId: string = user.body.id;
  const joined = await t.control('POST', `/vrchat/groups/${groupId}/members/${vrcUserId}`, {
    roleIds: holder ? [linkedGroupRole] : [],
  });
  if (joined.status !== 201) throw new Error(`adding to the group answered ${joined.status}`);
  const member = await t.control('POST', `/discord/guilds/${hangout}/members`, {
    username: `sync_bench_${i}`,
    roles: holder ? [memberRole] : [],
  });
  if (member.status !== 201) throw new Error(`adding to Discord answered ${member.status}`);
  const discordUserId: string = member.body.userId;
  // As the linking flow leaves a link (see test/factories.ts vrchatLink).
  await t.ctx.db.insert(vrchatLinks).values({
    discordUserId,
    vrcUserId,
    vrchatName: name,
    isVerified: true,
    ageVerification: 'Unverified',
  });
  return { discordUserId, vrcUserId };
}

async function setRole(t: TestApp, p: Person, roles: string[]) {
  const res = await t.control('PATCH', `/discord/guilds/${hangout}/members/${p.discordUserId}`, { roles });
  if (res.status !== 200) throw new Error(`PATCH member roles answered ${res.status}`);
}

async function queueIdle(t: TestApp, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await t.ctx.database.executeSql(
      "select count(*)::int as n from pgboss.job where name = 'sync.guild' and state in ('created', 'active', 'retry')",
    );
    if (Number(res.rows[0]?.n) === 0) return;
    await sleep(100);
  }
}

async function benchPlatforms() {
  const started = performance.now();
  const t = await createTestApp({
    simulator: true,
    limits: 'lax', // the bench measures the product, not the simulators' limits
    jobs: true,
  });
  try {
    const rate = (await t.control('GET', '/vrchat/config')).body.rate;
    const roleRes = await t.control('POST', `/discord/guilds/${hangout}/roles`, { name: 'Group Member' });
    const memberRole: string = roleRes.body.id;
    await t.ctx.db
      .insert(guildGroups)
      .values({ guildId: hangout, groupId, name: 'VRC Hangout Official', iconUrl: null });
    await t.ctx.database.executeSql(`update guild_groups set enabled = true where guild_id = $1`, [hangout]);
    await t.ctx.db.insert(discordGroupMappings).values([
      { guildId: hangout, discordRoleId: memberRole, groupRoleId: null, action: 'Membership' },
      {
        guildId: hangout,
        discordRoleId: memberRole,
        groupRoleId: linkedGroupRole,
        action: 'GrantRoleTemporary',
      },
    ]);
    const mappings = 2;
    const holders: Person[] = [];
    const others: Person[] = [];
    for (let i = 0; i < HOLDERS + OTHERS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, HOLDERS + OTHERS - i) }, (_, j) =>
          person(t, i + j, memberRole, i + j < HOLDERS),
        ),
      );
      for (const [j, p] of batch.entries()) (i + j < HOLDERS ? holders : others).push(p);
    }
    const everyone = [...holders, ...others];
    await mirrorShows(
      t,
      new Map(everyone.map((p) => [p.discordUserId, holders.includes(p) ? [memberRole] : []])),
    );
    const linked = everyone.length;
    const settle = await runGuildSync(t.ctx, hangout);
    out(
      `\nPlatform calls: Hangout with ${linked} linked members (+ the seeded group's 16), mappings Membership + ` +
        `GrantRoleTemporary on one Discord role; simulated VRChat rate limit on (${rate.capacity} burst, ` +
        `${rate.perSecond}/s); setup in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    out(`  settling sync (state already agrees): ${JSON.stringify(settle)}`);

    // k changes: the role taken from some holders, given to some others.
    const taken = holders.slice(0, CHANGES_EACH_WAY);
    const given = others.slice(0, CHANGES_EACH_WAY);
    const k = taken.length + given.length;
    for (const p of taken) await setRole(t, p, []);
    for (const p of given) await setRole(t, p, [memberRole]);
    await mirrorShows(
      t,
      new Map<string, string[]>([
        ...taken.map((p): [string, string[]] => [p.discordUserId, []]),
        ...given.map((p): [string, string[]] => [p.discordUserId, [memberRole]]),
      ]),
    );
    let start = performance.now();
    const changed = await runGuildSync(t.ctx, hangout);
    const changedMs = performance.now() - start;
    start = performance.now();
    const second = await runGuildSync(t.ctx, hangout);
    const secondMs = performance.now() - start;
    const groupNow = await groupRolesOf(t);
    const correct =
      taken.every((p) => !groupNow.get(p.vrcUserId)?.includes(linkedGroupRole)) &&
      given.every((p) => groupNow.get(p.vrcUserId)?.includes(linkedGroupRole));
    const naive = linked * mappings + linked;
    out(
      `  sync with k = ${k} changes: ${changed?.writes} writes, ${changed?.reads} reads, ` +
        `${changedMs.toFixed(0)} ms (group ${correct ? 'correct' : 'WRONG'} afterwards)`,
    );
    out(
      `  immediate second sync: ${second?.writes} writes, ${second?.reads} reads, ${secondMs.toFixed(0)} ms`,
    );
    out(
      `  naive (one call per linked member and mapping, one read per member): ${linked} × ${mappings} + ${linked} = ` +
        `${naive} calls per sync, whatever changed; the engine: ${(changed?.writes ?? 0) + (changed?.reads ?? 0)} ` +
        `with ${k} changes, ${(second?.writes ?? 0) + (second?.reads ?? 0)} with none`,
    );

    // 3. Propagation through the real path: gateway event → requestGuildSync (2 s, collapsed) → worker → VRChat.
    const stopWorker = await startJobWorker(t.ctx);
    try {
      await queueIdle(t);
      const targets = others.slice(CHANGES_EACH_WAY, CHANGES_EACH_WAY + PROPAGATIONS);
      const sent = new Map<string, number>();
      const seen = new Map<string, number>();
      let sending = true;
      const poller = (async () => {
        const deadline = () => sending || performance.now() - Math.max(...sent.values()) < 30_000;
        while (seen.size < targets.length && deadline()) {
          const roles = await groupRolesOf(t);
          const now = performance.now();
          for (const p of targets)
            if (
              sent.has(p.vrcUserId) &&
              !seen.has(p.vrcUserId) &&
              roles.get(p.vrcUserId)?.includes(linkedGroupRole)
            )
              seen.set(p.vrcUserId, now);
          await sleep(50);
        }
      })();
      // A change every 250 ms: bursts collapse into one sync per server, as the trigger intends.
      for (const p of targets) {
        sent.set(p.vrcUserId, performance.now());
        await setRole(t, p, [memberRole]);
        await sleep(250);
      }
      sending = false;
      await poller;
      const latencies = targets
        .filter((p) => seen.has(p.vrcUserId))
        .map((p) => seen.get(p.vrcUserId)! - sent.get(p.vrcUserId)!)
        .sort((a, b) => a - b);
      const syncs = await t.ctx.database.executeSql(
        "select count(*)::int as n from pgboss.job where name = 'sync.guild' and state = 'completed'",
      );
      out(
        `  propagation (Discord role given → group role on the member, via gateway, job and worker), ` +
          `${targets.length} changes 250 ms apart: p50 ${(percentile(latencies, 0.5) / 1000).toFixed(2)} s, ` +
          `p95 ${(percentile(latencies, 0.95) / 1000).toFixed(2)} s, max ${(latencies.at(-1)! / 1000).toFixed(2)} s; ` +
          `${latencies.length}/${targets.length} arrived; ${syncs.rows[0]?.n} sync jobs completed in all`,
      );
    } finally {
      await stopWorker();
    }
  } finally {
    await t.close();
  }
}

export async function runSyncBench(): Promise<void> {
  out('\nSync engine');
  const start = performance.now();
  benchDiff();
  await benchPlatforms();
  out(`  (sync bench took ${((performance.now() - start) / 1000).toFixed(0)} s)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runSyncBench();
