import { eq, sql } from 'drizzle-orm';
import { guildSyncState } from '../../../db/schema/index.js';
import { type Actor, botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid, unavailable } from '../../../kernel/errors.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import { requireGuildPermission } from '../../access/index.js';
import { linkOf } from '../groups/groups.service.js';
import { forgetGroupReads } from './group-reads.js';
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
import { dropStaleGrants } from './temporary-grants.js';

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

interface HeldRemoval extends SyncActionView {
  /** What an approval names (`heldKeyOf`); rows held before Discord roles were held have only `vrcUserId`. */
  key?: string;
  /** Approved by a manager: every sync applies it (not only the job the approval queued). */
  approved?: boolean;
}

const keyOfHeld = (h: HeldRemoval) => h.key ?? h.vrcUserId ?? '';

/**
 * What the status shows of a stored held removal: the view's fields and nothing else. A stored entry also
 * carries its `key` and `approved` (production's compiled serializer answers 500 for a property the schema
 * does not declare inside the nullable `held`), and a row stored by older code may lack a field.
 */
function heldView(h: Partial<HeldRemoval>): SyncActionView {
  return {
    kind: h.kind === 'removeDiscordRole' ? 'removeDiscordRole' : 'remove',
    targetName: h.targetName || h.vrcUserId || h.discordUserId || '',
    discordUserId: h.discordUserId ?? null,
    vrcUserId: h.vrcUserId ?? null,
    roleName: h.roleName ?? null,
    reason: h.reason ?? '',
  };
}

/** "Glimmer" for a group removal, "Glimmer (Event Host)" for a Discord role taken. */
const heldName = (h: HeldRemoval) => (h.roleName ? `${h.targetName} (${h.roleName})` : h.targetName);

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
  const obs = await observeGuild(ctx, guildId, { freshMembers: true });
  if (!obs) return null;
  await settleIntents(ctx, guildId, obs.input, obs.group?.id ?? null);
  await dropStaleGrants(ctx.db, guildId, obs.input);
  const before = await stateOf(ctx, guildId);
  const stored = (before?.heldRemovals ?? []) as HeldRemoval[];
  const approved = new Set([
    ...(opts.approvedRemovals ?? []),
    ...stored.filter((h) => h.approved).map(keyOfHeld),
  ]);
  const { plan, held, derived } = planWithBreaker(obs.input, obs.group?.memberCount ?? 0, approved);
  const hold = held.length > 0;
  const groupId = obs.group?.id ?? null;

  if (hold) {
    const views = held.map((a) => ({ ...viewOf(obs, a), key: heldKeyOf(a) ?? '' }));
    // Audited once: a later sync holding the same removals leaves the record (and its time) as it is.
    const same = (a: string[], b: string[]) => a.length === b.length && a.every((k, i) => k === b[i]);
    const storedKeys = stored
      .filter((h) => !h.approved)
      .map(keyOfHeld)
      .sort();
    if (!same(views.map((v) => v.key).sort(), storedKeys))
      await holdRemovals(ctx, guildId, views, obs.group?.memberCount ?? 0, derived.length);
  }
  const result = await applyActions(ctx, guildId, groupId, plan.actions, (a) => ({
    ...viewOf(obs, a),
    vrchatName: vrchatNameOf(obs, a),
    groupId,
  }));
  if (groupId && result.writes > 0) forgetGroupReads(ctx, groupId);
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
  await ctx.db
    .insert(guildSyncState)
    .values({
      guildId,
      lastRunAt: new Date(),
      lastResult: summary,
      warnings,
    })
    .onConflictDoUpdate({
      target: guildSyncState.guildId,
      set: {
        lastRunAt: new Date(),
        lastResult: summary,
        warnings,
        // A sync that holds nothing clears what an earlier one held: the rules no longer ask for it.
        ...(hold ? {} : { heldRemovals: null, heldAt: null }),
        updatedAt: sql`now()`,
      },
    });
  return summary;
}

async function holdRemovals(
  ctx: AppContext,
  guildId: string,
  held: HeldRemoval[],
  groupSize: number,
  derived: number,
) {
  const values = { heldRemovals: held, heldAt: new Date(), updatedAt: new Date() };
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(guildSyncState)
      .values({ guildId, ...values })
      .onConflictDoUpdate({ target: guildSyncState.guildId, set: values });
    await audit(tx, {
      action: 'sync.removals_held',
      actor: botActor,
      guildId,
      details: {
        count: held.length,
        groupSize,
        // Steps held with the removals because they follow from them.
        heldWithThem: derived,
        names: held.slice(0, 25).map(heldName),
      },
    });
  });
}

/** The dry run: what the next sync would do, without doing it. */
export async function previewGuildSync(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const obs = await observeGuild(ctx, guildId, { preview: true });
  if (!obs) return { total: 0, counts: {}, actions: [], wouldHold: 0, complete: true, estimatedSeconds: 0 };
  const { wanted: plan, held } = planWithBreaker(obs.input, obs.group?.memberCount ?? 0, new Set());
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
  const held = ((row?.heldRemovals ?? []) as HeldRemoval[]).filter((h) => !h.approved);
  const last = row?.lastResult as Partial<SyncRunResult> | null | undefined;
  const [activity, nextRunAt] = await Promise.all([syncActivityOf(ctx, guildId), nextScheduledSync(ctx)]);
  return {
    groupEnabled: link?.enabled ?? false,
    activity,
    nextRunAt,
    lastRunAt: row?.lastRunAt?.toISOString() ?? null,
    lastResult: last ? { applied: last.applied ?? 0, failed: last.failed ?? 0, held: last.held ?? 0 } : null,
    held:
      held.length > 0 && row?.heldAt
        ? {
            count: held.length,
            heldAt: row.heldAt.toISOString(),
            actions: held.slice(0, PREVIEW_LIMIT).map(heldView),
          }
        : null,
    warnings: [
      ...((row?.warnings ?? []) as { kind: string; message: string }[]),
      ...(row?.followError ? [{ kind: 'groupFollow', message: row.followError }] : []),
    ],
  };
}

export async function requestSyncNow(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const id = await ctx.jobs
    .send(syncGuildJob, { guildId, reason: 'manual' }, { singletonKey: guildId })
    .catch((err) => {
      ctx.log.error({ err, guildId }, 'sync: could not queue');
      throw unavailable(SYNC_NOT_QUEUED);
    });
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
  };
}

export const SYNC_NOT_QUEUED = 'The sync could not be queued right now. Try again in a minute.';
export const NOTHING_HELD = 'No removals are held for this server.';

/** 'Apply removals' or 'Discard' for what the breaker held. */
export async function decideHeldRemovals(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  decision: 'apply' | 'discard',
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const held = (((await stateOf(ctx, guildId))?.heldRemovals ?? []) as HeldRemoval[]).filter(
    (h) => !h.approved,
  );
  if (held.length === 0) throw invalid(NOTHING_HELD);
  if (decision === 'apply') {
    // Queued before the list is cleared, so a failure loses nothing. The removals run in a sync job,
    // re-checked against the group then, never blindly.
    await ctx.jobs
      .send(
        syncGuildJob,
        { guildId, reason: 'held', approvedRemovals: held.map(keyOfHeld) },
        { singletonKey: `${guildId}:held` },
      )
      .catch((err) => {
        ctx.log.error({ err, guildId }, 'sync: approved removals not queued');
        throw unavailable(SYNC_NOT_QUEUED);
      });
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(guildSyncState)
      // Approved removals stay recorded until a sync carries them out, so a sync running before the queued
      // one applies them too instead of holding them again.
      .set({
        heldRemovals: decision === 'apply' ? held.map((h) => ({ ...h, approved: true })) : null,
        heldAt: decision === 'apply' ? undefined : null,
        updatedAt: sql`now()`,
      })
      .where(eq(guildSyncState.guildId, guildId));
    await audit(tx, {
      action: decision === 'apply' ? 'sync.removals_approved' : 'sync.removals_discarded',
      actor,
      guildId,
      details: { count: held.length, names: held.slice(0, 25).map(heldName) },
    });
  });
  return { count: held.length };
}

export { requestGuildSync };
