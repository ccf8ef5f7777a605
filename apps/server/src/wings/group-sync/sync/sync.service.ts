import { eq, sql } from 'drizzle-orm';
import { guildSyncState } from '../../../db/schema/index.js';
import { type Actor, botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid, unavailable } from '../../../kernel/errors.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import { liftWaitingSync, requestGuildSync, syncJobFor } from '../../../kernel/sync-trigger.js';
import { metrics } from '../../../observability/metrics.js';
import { requireGuildPermission } from '../../access/index.js';
import { linkOf } from '../groups/groups.service.js';
import { type LastSyncFacts, lastSyncFacts, nextFullPassSync } from './full-pass.js';
import { groupWritten } from './group-reads.js';
import {
  awaitingKeys,
  decideHolds,
  heldPage,
  heldSummary,
  rememberedHolds,
  reopenHolds,
  updateHolds,
} from './held-removals.js';
import { joinRefusedMessage } from './join-refusals.js';
import { estimatedSyncSeconds, nextScheduledSync, syncActivityOf } from './sync-activity.js';
import { type ApplyWarning, applyActions, settleIntents } from './sync-apply.js';
import {
  breakerHolds,
  HOLD_ABOVE_COUNT,
  HOLD_ABOVE_SHARE,
  heldKeyOf,
  planWithBreaker,
} from './sync-breaker.js';
import { type Observation, type ObserveWarning, observeGuild } from './sync-observe.js';
import type { SyncAction, SyncActionKind, SyncWarning } from './sync-plan.js';
import { syncQueuePlace } from './sync-queue.js';
import { adoptRetiredAutoRoles, dropStaleGrants } from './temporary-grants.js';

export { breakerHolds, HOLD_ABOVE_COUNT, HOLD_ABOVE_SHARE };

const PREVIEW_LIMIT = 50;

export interface SyncActionView {
  kind: SyncActionKind;
  targetName: string;
  discordUserId: string | null;
  vrcUserId: string | null;
  roleName: string | null;
  reason: string;
}

export interface SyncRunResult {
  planned: number;
  applied: number;
  failed: number;
  held: number;
  reads: number;
  writes: number;
}

export function viewOf(obs: Observation, a: SyncAction): SyncActionView {
  const vrcUserId = 'vrcUserId' in a ? a.vrcUserId : null;
  const discordUserId = a.discordUserId;
  const targetName =
    (discordUserId && obs.names.get(discordUserId)) ||
    (vrcUserId && obs.names.get(vrcUserId)) ||
    vrcUserId ||
    discordUserId ||
    '';
  let roleName: string | null = null;
  if (a.kind === 'addDiscordRole' || a.kind === 'removeDiscordRole')
    roleName = obs.guild.roles.find((r) => r.id === a.roleId)?.name ?? a.roleId;
  if (a.kind === 'addGroupRole' || a.kind === 'removeGroupRole')
    roleName = obs.group?.roles.find((r) => r.id === a.roleId)?.name ?? a.roleId;
  return { kind: a.kind, targetName, discordUserId, vrcUserId, roleName, reason: a.reason };
}

/**
 * Who an action on VRChat concerns, as a preview lists it: the VRChat account acted on, by name and id, and the
 * Discord member whose (verified) link it went through ('carol_d · VRChat Carol (usr_…)'); a Discord action
 * names the member only.
 */
export function actedOnName(obs: Observation, a: SyncAction): string {
  const view = viewOf(obs, a);
  if (!view.vrcUserId) return view.targetName;
  const account = `VRChat ${vrchatNameOf(obs, a) ?? view.vrcUserId} (${view.vrcUserId})`;
  const member = a.discordUserId && obs.names.get(a.discordUserId);
  return member ? `${member} · ${account}` : account;
}

/** The member's VRChat name (the link's, else the group's listing), for the audit entry's description. */
function vrchatNameOf(obs: Observation, a: SyncAction): string | null {
  const member = a.discordUserId ? obs.input.members.find((m) => m.discordUserId === a.discordUserId) : null;
  if (member?.link) return member.link.vrchatName;
  const vrcUserId = 'vrcUserId' in a ? a.vrcUserId : null;
  return (vrcUserId && obs.names.get(vrcUserId)) || null;
}

/** What the tabs show for a problem the bot cannot fix itself. */
export function warningMessage(obs: Observation, w: SyncWarning | ObserveWarning): string {
  const discordRole = (id: string) => obs.guild.roles.find((r) => r.id === id)?.name ?? id;
  const groupRole = (id: string) => obs.group?.roles.find((r) => r.id === id)?.name ?? id;
  switch (w.kind) {
    case 'discordRole':
      return `The bot cannot give or take the Discord role ${discordRole(w.subject)}: it needs Manage Roles and a role above it.`;
    case 'groupRole':
      return `The bot cannot give or take the group role ${groupRole(w.subject)}: it is at or above the bot's rank in the group, or VRChat sells it.`;
    case 'groupPermission':
      return `The bot's role in the VRChat group lacks the permission ${w.subject}.`;
    case 'joinRefused':
      return (
        obs.input.group?.refusedJoinRequests?.get(w.subject) ??
        joinRefusedMessage(obs.names.get(w.subject) ?? w.subject)
      );
    case 'groupMissing':
      return 'VRChat no longer finds the linked group; nothing is synced with it.';
    case 'botNotInGroup':
      return 'The bot is not a member of the linked VRChat group; nothing is synced with it.';
    default:
      return `The bot cannot act: ${w.subject}.`;
  }
}

function warningsOf(obs: Observation, plan: { warnings: SyncWarning[] }, applied: ApplyWarning[] = []) {
  const seen = new Map<string, { kind: string; message: string }>();
  for (const w of [...obs.warnings, ...plan.warnings]) {
    seen.set(`${w.kind}:${w.subject}`, { kind: w.kind, message: warningMessage(obs, w) });
  }
  for (const w of applied) seen.set(`${w.kind}:${w.subject}`, { kind: w.kind, message: w.message });
  return [...seen.values()];
}

/**
 * One sync of one server: observe, plan, hold a mass removal, apply the rest. Runs in the `sync.guild` job;
 * a crash or a transient failure makes pg-boss retry it, and the retry observes again, so nothing is done
 * twice. `approvedRemovals` are held removals a manager approved ('Apply removals').
 */
export async function runGuildSync(
  ctx: AppContext,
  guildId: string,
  opts: { approvedRemovals?: readonly string[] } = {},
): Promise<SyncRunResult | null> {
  const started = Date.now();
  // Marked before anything can fail: a sync that does not finish leaves the server due for the scheduled pass.
  await ctx.db
    .insert(guildSyncState)
    .values({ guildId, lastAttemptAt: new Date(started) })
    .onConflictDoUpdate({ target: guildSyncState.guildId, set: { lastAttemptAt: new Date(started) } });
  const obs = await observeGuild(ctx, guildId, { freshMembers: true });
  if (!obs) return null;
  await settleIntents(ctx, guildId, obs.input, obs.group?.id ?? null);
  await dropStaleGrants(ctx.db, guildId, obs.input);
  await adoptRetiredAutoRoles(ctx.db, guildId, obs);
  const before = await stateOf(ctx, guildId);
  const remembered = await rememberedHolds(ctx.db, guildId);
  // Approved by the job's payload too: a sync queued by 'Apply removals' runs them even if it reads first.
  const decisions = new Map(remembered);
  for (const key of opts.approvedRemovals ?? []) if (decisions.has(key)) decisions.set(key, 'apply');
  const groupSize = obs.group?.memberCount ?? 0;
  const { plan, held, fresh, derived, released } = planWithBreaker(obs.input, groupSize, decisions);
  const groupId = obs.group?.id ?? null;
  await updateHolds(ctx.db, guildId, {
    fresh: fresh.map((a) => heldRowOf(obs, a)),
    released,
    remembered,
    groupSize,
    heldWithThem: derived.length,
  });
  const result = await applyActions(ctx, guildId, groupId, plan.actions, (a) => ({
    ...viewOf(obs, a),
    vrchatName: vrchatNameOf(obs, a),
    groupId,
  }));
  if (groupId && result.writes > 0) await groupWritten(ctx, guildId, groupId);
  const warnings = warningsOf(obs, plan, result.warnings);
  // A problem the bot cannot fix is audit-logged once, when it first appears (the tabs show it until fixed).
  const known = new Set(((before?.warnings ?? []) as { message: string }[]).map((w) => w.message));
  for (const w of warnings.filter((x) => !known.has(x.message))) {
    await audit(ctx.db, {
      action: 'sync.warning',
      actor: botActor,
      guildId,
      details: { kind: w.kind, message: w.message },
    });
  }
  const summary = {
    planned: plan.actions.length,
    applied: result.applied,
    failed: result.failed,
    held: held.length,
    reads: obs.reads,
    writes: result.writes,
  };
  // How long it took orders this server's next syncs in the queue (kernel/sync-trigger.ts, syncPriority).
  const stored = { ...summary, durationMs: Date.now() - started };
  await ctx.db
    .insert(guildSyncState)
    .values({
      guildId,
      lastRunAt: new Date(),
      lastResult: stored,
      warnings,
    })
    .onConflictDoUpdate({
      target: guildSyncState.guildId,
      set: {
        lastRunAt: new Date(),
        lastResult: stored,
        warnings,
        updatedAt: sql`now()`,
      },
    });
  metrics.syncDuration.observe({}, (Date.now() - started) / 1000);
  for (const kind of ['planned', 'applied', 'failed', 'held'] as const)
    metrics.syncChanges.inc({ kind }, summary[kind]);
  return summary;
}

/** The row a newly held removal is remembered as: which member or account, which action, the names to show. */
function heldRowOf(obs: Observation, a: SyncAction) {
  const view = viewOf(obs, a);
  return {
    key: heldKeyOf(a) ?? '',
    kind: a.kind as 'remove' | 'removeGroupRole' | 'removeDiscordRole',
    vrcUserId: view.vrcUserId,
    discordUserId: view.discordUserId,
    roleId: 'roleId' in a ? a.roleId : null,
    reason: a.reason,
    targetName: view.targetName,
    roleName: view.roleName,
  };
}

/** The dry run: what the next sync would do, without doing it. */
export async function previewGuildSync(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const obs = await observeGuild(ctx, guildId, { preview: true });
  if (!obs) return { total: 0, counts: {}, actions: [], wouldHold: 0, complete: true, estimatedSeconds: 0 };
  const remembered = await rememberedHolds(ctx.db, guildId);
  const { wanted: plan, held } = planWithBreaker(obs.input, obs.group?.memberCount ?? 0, remembered);
  const counts: Record<string, number> = {};
  for (const a of plan.actions) counts[a.kind] = (counts[a.kind] ?? 0) + 1;
  return {
    total: plan.actions.length,
    counts,
    actions: plan.actions.slice(0, PREVIEW_LIMIT).map((a) => viewOf(obs, a)),
    wouldHold: held.length,
    complete: obs.groupListComplete,
    estimatedSeconds: estimatedSyncSeconds(counts, obs.group !== null),
  };
}

async function stateOf(ctx: AppContext, guildId: string) {
  const [row] = await ctx.db.select().from(guildSyncState).where(eq(guildSyncState.guildId, guildId));
  return row;
}

export async function getSyncStatus(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const row = await stateOf(ctx, guildId);
  const link = await linkOf(ctx.db, guildId);
  const held = await heldSummary(ctx.db, guildId);
  const last = row?.lastResult as Partial<SyncRunResult> | null | undefined;
  const [activity, nextPassAt, queue, facts] = await Promise.all([
    syncActivityOf(ctx, guildId),
    nextScheduledSync(ctx),
    queuePlaceOrNull(ctx, guildId),
    lastSyncFacts(ctx, [guildId]),
  ]);
  // The scheduled pass skips a server nothing changed in until its last sync is FULL_PASS_INTERVAL_MS old.
  const nextRunAt = nextPassAt
    ? nextFullPassSync(facts.get(guildId) as LastSyncFacts, new Date(nextPassAt)).toISOString()
    : null;
  return {
    groupEnabled: link?.enabled ?? false,
    activity,
    queue,
    nextRunAt,
    lastRunAt: row?.lastRunAt?.toISOString() ?? null,
    lastResult: last ? { applied: last.applied ?? 0, failed: last.failed ?? 0, held: last.held ?? 0 } : null,
    held:
      held.count > 0 && held.heldAt
        ? {
            count: held.count,
            heldAt: held.heldAt.toISOString(),
            actions: await heldPage(ctx.db, guildId, 0, PREVIEW_LIMIT),
          }
        : null,
    keptRemovals: held.kept,
    warnings: [
      ...((row?.warnings ?? []) as { kind: string; message: string }[]),
      ...(row?.followError ? [{ kind: 'groupFollow', message: row.followError }] : []),
    ],
  };
}

export async function requestSyncNow(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const { priority, long } = await syncJobFor(ctx, guildId, 'manual');
  const id = await ctx.jobs
    .send(
      syncGuildJob,
      { guildId, reason: 'manual', ...(long ? { long: true } : {}) },
      { singletonKey: guildId, priority },
    )
    .catch((err) => {
      ctx.log.error({ err, guildId }, 'sync: could not queue');
      throw unavailable(SYNC_NOT_QUEUED);
    });
  if (id === null) await liftWaitingSync(ctx, guildId, priority);
  await audit(ctx.db, { action: 'sync.requested', actor, guildId, details: { queued: id !== null } });
  // When the server syncs: a sync already running (or one whose worker died, until its lease runs out)
  // delays the waiting one; an answer without it is still a queued sync.
  const where = await ctx.jobs.jobsOfKey?.(syncGuildJob, guildId).catch((err) => {
    ctx.log.warn({ err, guildId }, 'sync: could not read when the sync starts');
    return undefined;
  });
  return {
    queued: id !== null,
    running: where?.running ?? false,
    startsAt: where?.startsAt?.toISOString() ?? null,
    queue: await queuePlaceOrNull(ctx, guildId),
  };
}

/** The queue estimate is extra: a failed read answers without it rather than failing the status. */
async function queuePlaceOrNull(ctx: AppContext, guildId: string) {
  return syncQueuePlace(ctx, guildId).catch((err) => {
    ctx.log.warn({ err, guildId }, 'sync: could not read the queue');
    return null;
  });
}

export const SYNC_NOT_QUEUED = 'The sync could not be queued right now. Try again in a minute.';
export const NOTHING_HELD = 'No removals are held for this server.';
export const NOTHING_DISCARDED = 'No discarded removals are kept for this server.';

/**
 * 'Apply removals' or 'Discard' for what the breaker holds. Discard declines them: they stay held (never
 * applied) until the rules stop asking for them, so a later sync cannot carry them out on its own. 'Review'
 * brings the declined ones back for a decision (a manager who changed their mind can then apply them).
 */
export async function decideHeldRemovals(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  decision: 'apply' | 'discard' | 'review',
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  if (decision === 'review') {
    const reopened = await reopenHolds(ctx.db, guildId, actor);
    if (reopened === 0) throw invalid(NOTHING_DISCARDED);
    return { count: reopened };
  }
  const { count } = await heldSummary(ctx.db, guildId);
  if (count === 0) throw invalid(NOTHING_HELD);
  if (decision === 'apply') {
    // Queued before the decision is recorded, so a failure loses nothing. The removals run in a sync job,
    // re-checked against the platforms then, never blindly; any sync from now on carries them out.
    // The keys go with the job too: it carries them out even if it starts before the approval is recorded.
    const approvedRemovals = await awaitingKeys(ctx.db, guildId);
    await ctx.jobs
      .send(syncGuildJob, { guildId, reason: 'held', approvedRemovals }, { singletonKey: `${guildId}:held` })
      .catch((err) => {
        ctx.log.error({ err, guildId }, 'sync: approved removals not queued');
        throw unavailable(SYNC_NOT_QUEUED);
      });
  }
  const decided = await decideHolds(ctx.db, guildId, actor, decision === 'apply' ? 'apply' : 'keep');
  return { count: decided.length };
}

/** One page of the removals the breaker holds awaiting a decision (all of them can be read before Apply). */
export async function listHeldRemovals(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  { page, pageSize }: { page: number; pageSize: number },
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const { count } = await heldSummary(ctx.db, guildId);
  const actions = await heldPage(ctx.db, guildId, (page - 1) * pageSize, pageSize);
  return { total: count, page, pageSize, actions };
}

export { requestGuildSync };
