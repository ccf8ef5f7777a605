import { setTimeout as sleep } from 'node:timers/promises';
import { asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { groupDiscordMappings, guildGroups, guildSyncState } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import type { VrchatAccountPort } from '../../../platforms/ports.js';
import { VrchatError } from '../../../platforms/vrchat/errors.js';
import { markGroupRolesStale, refreshGroupRoles } from '../groups/group-role-cache.js';

/**
 * What happens in a group that the sync must answer: someone joined (Auto Remove, mapped roles), left or was
 * removed (a Membership invite again), asked to join (accept), had roles changed by hand (group-to-Discord), or
 * a role's permissions changed (the bot may now do what it could not).
 * VRChat has no member event stream for admins, so the group's audit log is polled with a cursor.
 */
export const FOLLOWED_GROUP_EVENTS = [
  'group.member.join',
  'group.member.leave',
  'group.member.remove',
  'group.request.create',
  'group.request.accept',
  'group.member.role.assign',
  'group.member.role.unassign',
  'group.user.ban',
  'group.user.unban',
  // A role's permissions changed: granting the bot's role a missing permission is the fix for a sync warning.
  'group.role.update',
  // Roles made or deleted: the cached copy of the group's roles (the world list reads it) is read again.
  'group.role.create',
  'group.role.delete',
];
/** Events that change the group's roles themselves: the cached copy is read again after them. */
const ROLE_EVENTS = new Set(['group.role.create', 'group.role.update', 'group.role.delete']);
/** A new role changes nothing a sync does (no mapping names it yet): it refreshes the copy, no sync. */
const NO_SYNC_EVENTS = new Set(['group.role.create']);
const PAGE = 100;
/** After a failure a group is polled again after 1, 2, 4… minutes, at most an hour apart. */
const BACKOFF_BASE_SECONDS = 60;
const BACKOFF_MAX_SECONDS = 60 * 60;

export const backoffSeconds = (failures: number) =>
  Math.min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, failures - 1));

/** The sentence the sync warnings and the doctor show for a failed follow. */
export function followErrorMessage(err: unknown): string {
  const status = err instanceof VrchatError ? err.status : null;
  if (status === 403)
    return "The bot's role in the VRChat group lacks the permission group-audit-view, so changes made in the group by hand reach Discord only at the next scheduled sync.";
  if (status === 404) return 'VRChat no longer finds the linked group, so its changes are not followed.';
  return "VRChat did not answer while the bot read the group's audit log; it tries again shortly.";
}

/**
 * The share of each bot account's budget the follow may take: its reads start at least
 * 1 / (share × the account's rate) apart, so half the budget is always left for syncs and interactive reads.
 * At 1 request a second an account's 100 groups are each read every 200 s (docs/sync.md, "Following groups").
 */
export const FOLLOW_BUDGET_SHARE = 0.5;

/** How far apart one account's follow reads start (ms), from the account's sustained rate. */
export const followSpacingMs = (requestsPerSecond: number) =>
  1000 / (FOLLOW_BUDGET_SHARE * Math.max(requestsPerSecond, Number.MIN_VALUE));

type Followed = {
  guildId: string;
  groupId: string;
  account: string | null;
  state: typeof guildSyncState.$inferSelect | null;
};

/**
 * For every linked group the sync reads (groups feature on, or a group-to-Discord mapping), reads the audit log
 * entries newer than the server's cursor and asks for a sync when any came from someone other than the bot.
 * Each group is followed on its own: one that fails (the bot lacks group-audit-view, VRChat answers 5xx) is
 * recorded for its server and retried on a backoff, and the others go on. The first run only sets the cursor
 * (a full sync runs on its own timer anyway). Answers how many syncs it asked.
 * Each bot account's groups are followed by a loop of their own, side by side (each account has its own
 * budget: one slow or rate-limited account does not hold the others), longest-unpolled first
 * (guild_sync_state.followed_at), at most FOLLOW_BUDGET_SHARE of the account's budget. A pass stops between
 * groups when `signal` aborts (its time is up): the next pass starts with the groups this one did not reach, so
 * every group is polled in turn even when one pass cannot cover them all.
 */
export async function followGroupAuditLogs(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const mapped = ctx.db
    .select({ guildId: groupDiscordMappings.guildId })
    .from(groupDiscordMappings)
    .where(ne(groupDiscordMappings.action, 'None'));
  const followed: Followed[] = await ctx.db
    .select({
      guildId: guildGroups.guildId,
      groupId: guildGroups.groupId,
      account: guildGroups.vrchatAccount,
      state: guildSyncState,
    })
    .from(guildGroups)
    .leftJoin(guildSyncState, eq(guildSyncState.guildId, guildGroups.guildId))
    .where(or(eq(guildGroups.enabled, true), inArray(guildGroups.guildId, mapped)))
    .orderBy(sql`${guildSyncState.followedAt} asc nulls first`, asc(guildGroups.guildId));
  if (followed.length === 0) return 0;
  const spacingMs = followSpacingMs(ctx.vrchat.requestsPerSecond());
  const loops = [...byServingAccount(ctx.vrchat.accounts(), followed)].map(([account, groups]) =>
    followAccountGroups(ctx, ctx.vrchat.forAccount(account), groups, spacingMs, signal),
  );
  const settled = await Promise.allSettled(loops);
  const failed = settled.find((r) => r.status === 'rejected');
  // A rate-limited account stopped its own loop only; the pass still fails so the run says so.
  if (failed) throw failed.reason;
  return settled.reduce((n, r) => n + (r.status === 'fulfilled' ? r.value : 0), 0);
}

/**
 * The groups split by the account serving them, each list in the given order: the stored account when it is
 * configured, else the first (as the VRChat pool routes their calls).
 */
function byServingAccount(accounts: string[], followed: Followed[]): Map<string, Followed[]> {
  const configured = new Map(accounts.map((a) => [a.toLowerCase(), a]));
  const first = accounts[0] ?? '';
  const lists = new Map<string, Followed[]>();
  for (const group of followed) {
    const account = (group.account && configured.get(group.account.toLowerCase())) || first;
    const list = lists.get(account) ?? [];
    lists.set(account, list);
    list.push(group);
  }
  return lists;
}

/** One account's loop: its groups in turn, reads started at least `spacingMs` apart; answers syncs asked. */
async function followAccountGroups(
  ctx: AppContext,
  vrchat: VrchatAccountPort,
  groups: Followed[],
  spacingMs: number,
  signal?: AbortSignal,
): Promise<number> {
  let asked = 0;
  let nextAt = 0;
  const now = new Date();
  for (const { guildId, groupId, state } of groups) {
    if (signal?.aborted) break;
    if (state?.followRetryAt && state.followRetryAt > now) continue;
    if (!(await waitUntil(nextAt, signal))) break;
    nextAt = Date.now() + spacingMs;
    try {
      // Read through the account serving the group (its own changes are not news), with no look-up per group.
      const botId = await vrchat.currentUserId();
      if (await followOne(ctx, vrchat, { guildId, groupId, botId }, state?.groupAuditCursor ?? null)) asked++;
    } catch (err) {
      // Told to stop while its read waited in the pacer: not the group's failure; the next pass starts with it.
      if (signal?.aborted) break;
      // Rate limiting stops this account's loop (its groups share its budget); anything else this group only.
      if (err instanceof VrchatError && err.status === 429) throw err;
      await recordFailure(ctx, guildId, (state?.followFailures ?? 0) + 1, followErrorMessage(err));
      ctx.log.warn(
        { err, guildId, groupId },
        'groups.follow: could not follow a group; retrying on a backoff',
      );
    }
  }
  return asked;
}

/** Waits until epoch ms `at`; answers false when `signal` aborted first. */
async function waitUntil(at: number, signal?: AbortSignal): Promise<boolean> {
  const ms = at - Date.now();
  if (ms > 0)
    await sleep(ms, undefined, { signal }).catch(() => {
      // Aborted: answered below.
    });
  return !signal?.aborted;
}

/** Reads one group's new audit entries and moves its cursor; answers whether a sync was asked. */
async function followOne(
  ctx: AppContext,
  vrchat: VrchatAccountPort,
  { guildId, groupId, botId }: { guildId: string; groupId: string; botId: string },
  cursor: Date | null,
): Promise<boolean> {
  let newest = cursor ?? new Date();
  let fresh = 0;
  let rolesChanged = false;
  if (cursor) {
    // Newest first; pages until the cursor (entries at the cursor itself were seen last time).
    for (let offset = 0; ; offset += PAGE) {
      const page = await vrchat.getGroupAuditLogs(groupId, {
        startDate: cursor,
        eventTypes: FOLLOWED_GROUP_EVENTS,
        n: PAGE,
        offset,
      });
      for (const entry of page.entries) {
        const at = entry.createdAt ? new Date(entry.createdAt) : null;
        if (!at || at <= cursor) continue;
        if (at > newest) newest = at;
        if (ROLE_EVENTS.has(entry.eventType)) rolesChanged = true;
        if (entry.actorId !== botId && !NO_SYNC_EVENTS.has(entry.eventType)) fresh++;
      }
      if (!page.hasNext || page.entries.length < PAGE) break;
    }
  }
  if (rolesChanged) await refreshRolesAfterChange(ctx, groupId);
  if (fresh > 0) await requestGuildSync(ctx, guildId, 'group');
  const set = {
    groupAuditCursor: newest,
    followFailures: 0,
    followError: null,
    followRetryAt: null,
    followedAt: new Date(),
  };
  await ctx.db
    .insert(guildSyncState)
    .values({ guildId, ...set })
    .onConflictDoUpdate({ target: guildSyncState.guildId, set });
  return fresh > 0;
}

/**
 * The group's roles changed: its cached copy is read again now. A failed read does not fail the follow (the
 * cursor moves on): the copy is marked out of date, and groups.roles reads it first on its next run.
 */
async function refreshRolesAfterChange(ctx: AppContext, groupId: string): Promise<void> {
  try {
    await refreshGroupRoles(ctx, groupId);
  } catch (err) {
    await markGroupRolesStale(ctx.db, groupId);
    // Rate limited: the whole poll stops, and the cursor stays, so the next pass sees the change again.
    if (err instanceof VrchatError && err.status === 429) throw err;
    ctx.log.warn({ err, groupId }, 'groups.follow: roles changed but could not be read; marked out of date');
  }
}

async function recordFailure(ctx: AppContext, guildId: string, failures: number, message: string) {
  const set = {
    followFailures: failures,
    followError: message,
    followRetryAt: new Date(Date.now() + backoffSeconds(failures) * 1000),
    followedAt: new Date(),
  };
  await ctx.db
    .insert(guildSyncState)
    .values({ guildId, ...set })
    .onConflictDoUpdate({ target: guildSyncState.guildId, set });
}

/** Why following this server's group fails (a sentence), or null while it works. */
export async function followProblemOf(db: Queryable, guildId: string): Promise<string | null> {
  const [row] = await db
    .select({ error: guildSyncState.followError })
    .from(guildSyncState)
    .where(eq(guildSyncState.guildId, guildId));
  return row?.error ?? null;
}
