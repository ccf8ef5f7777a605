import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { syncIntents } from '../../../db/schema/index.js';
import { botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { DiscordPermissionError } from '../../../platforms/discord/errors.js';
import { VrchatError } from '../../../platforms/vrchat/errors.js';
import { mirrorRoleChange } from '../../access/index.js';
import { recordInviteSent } from '../../identity/index.js';
import { actionInPlace } from './action-in-place.js';
import { joinRefusedMessage, recordJoinRefusal } from './join-refusals.js';
import type { SyncAction, SyncPlanInput } from './sync-plan.js';
import { recordGrantChange } from './temporary-grants.js';

/** A problem met while applying (VRChat or Discord refused): shown on the tabs until a sync runs without it. */
export interface ApplyWarning {
  kind: 'discordRole' | 'groupAction' | 'joinRefused';
  subject: string;
  message: string;
}

export interface ApplyResult {
  applied: number;
  failed: number;
  /** Platform writes made (one per action tried). */
  writes: number;
  warnings: ApplyWarning[];
}

/** The audit event type of an action: the spec's types for group work, the rule's name for Discord roles. */
export function auditTypeOf(a: SyncAction): string {
  if (a.reason === 'AutoRemove') return 'NoMembership';
  if (a.reason === 'LinkedRole' || a.reason === 'Plus18Role' || a.reason === 'AgeVerifiedRole')
    return a.kind === 'addDiscordRole' ? 'role.auto.add' : 'role.auto.remove';
  return a.reason;
}

/** Errors worth retrying later (VRChat rate limiting, outages, time-outs): the job fails and pg-boss retries. */
function isTransient(err: unknown): boolean {
  if (err instanceof DiscordPermissionError) return false;
  const status = err instanceof VrchatError ? err.status : (err as { status?: number }).status;
  return typeof status === 'number' && (status === 429 || status >= 500);
}

const isDiscordAction = (a: SyncAction) => a.kind === 'addDiscordRole' || a.kind === 'removeDiscordRole';

/**
 * Carries out the plan's actions through the platform adapters (which pace themselves below the platforms'
 * limits): the Discord actions one after another, the VRChat actions one after another, the two side by side
 * (the platforms limit independently, so a sync of both takes as long as the longer part, not the sum; the
 * plan's order holds within each platform). Each write is recorded as an intent first and audit-logged
 * (actor 'bot') in the transaction that deletes the intent, once its result is known: a crash or a lost
 * answer in between leaves the intent for the next run's settleIntents. A transient failure stops both
 * parts (the other after its write in flight) and is thrown, so the job is retried with backoff; the retry
 * observes again and so does only what is still missing. Refusals (hierarchy, a permission) are recorded as
 * warnings and skipped.
 */
export async function applyActions(
  ctx: AppContext,
  guildId: string,
  groupId: string | null,
  actions: readonly SyncAction[],
  describe: (a: SyncAction) => Record<string, unknown>,
): Promise<ApplyResult> {
  const result: ApplyResult = { applied: 0, failed: 0, writes: 0, warnings: [] };
  const stopped: unknown[] = [];
  const lane = async (part: readonly SyncAction[]) => {
    for (const action of part) {
      if (stopped.length > 0) return;
      try {
        await applyAction(ctx, guildId, groupId, action, describe(action), result);
      } catch (err) {
        stopped.push(err);
        return;
      }
    }
  };
  await Promise.all([
    lane(actions.filter(isDiscordAction)),
    lane(actions.filter((a) => !isDiscordAction(a))),
  ]);
  if (stopped.length > 0) throw stopped[0];
  return result;
}

/** One action: its intent, the write, and its record (or the warning); a transient failure is thrown. */
async function applyAction(
  ctx: AppContext,
  guildId: string,
  groupId: string | null,
  action: SyncAction,
  described: Record<string, unknown>,
  result: ApplyResult,
): Promise<void> {
  result.writes++;
  const [intent] = await ctx.db
    .insert(syncIntents)
    .values({ guildId, action: { ...action }, details: described })
    .returning({ id: syncIntents.id });
  let outcome: Record<string, unknown>;
  try {
    outcome = await applyOne(ctx, guildId, groupId, action);
  } catch (err) {
    // Transient: the write may have landed with its answer lost, so the intent stays for the next run.
    if (isTransient(err)) throw err;
    result.failed++;
    const message = (err as Error).message;
    const subject = 'roleId' in action ? action.roleId : action.kind;
    const kind = isDiscordAction(action) ? 'discordRole' : 'groupAction';
    result.warnings.push({ kind, subject, message });
    ctx.log.warn({ err, guildId, action }, 'sync: action refused');
    await ctx.db.transaction(async (tx) => {
      await tx.delete(syncIntents).where(eq(syncIntents.id, intent.id));
      await audit(tx, {
        action: 'sync.failed',
        actor: botActor,
        guildId,
        targetId: targetOf(action),
        details: { ...described, error: message },
      });
    });
    return;
  }
  if (action.kind === 'acceptRequest' && outcome.outcome === 'too_many_groups' && groupId) {
    // Not a write: the request stays pending. Recorded so the next day's runs skip it; the tabs say why
    // and runGuildSync audit-logs the warning once.
    result.failed++;
    const message = joinRefusedMessage(
      String(described.vrchatName ?? described.targetName ?? action.vrcUserId),
    );
    result.warnings.push({ kind: 'joinRefused', subject: action.vrcUserId, message });
    await ctx.db.transaction(async (tx) => {
      await tx.delete(syncIntents).where(eq(syncIntents.id, intent.id));
      await recordJoinRefusal(tx, groupId, action.vrcUserId, message);
    });
    return;
  }
  await recordDone(ctx.db, guildId, groupId, intent.id, action, { ...described, ...outcome });
  result.applied++;
}

const targetOf = (a: SyncAction) => ('vrcUserId' in a ? a.vrcUserId : a.discordUserId);

/** Records a write that landed, in one transaction: the invite sent, the mirror's role, the audit entry. */
async function recordDone(
  db: Db,
  guildId: string,
  groupId: string | null,
  intentId: string,
  action: SyncAction,
  details: Record<string, unknown>,
) {
  await db.transaction(async (tx) => {
    await tx.delete(syncIntents).where(eq(syncIntents.id, intentId));
    if (action.kind === 'invite' && action.discordUserId && groupId) {
      await recordInviteSent(tx, {
        discordUserId: action.discordUserId,
        groupId,
        vrcUserId: action.vrcUserId,
      });
    }
    if (action.kind === 'addDiscordRole' || action.kind === 'removeDiscordRole') {
      await mirrorRoleChange(
        tx,
        guildId,
        action.discordUserId,
        action.roleId,
        action.kind === 'addDiscordRole',
      );
    }
    await recordGrantChange(tx, guildId, action);
    await audit(tx, {
      action: auditTypeOf(action),
      actor: botActor,
      guildId,
      targetId: targetOf(action),
      details,
    });
  });
}

/**
 * The intents an earlier run of this server left behind (it stopped, or an answer was lost, between a write and
 * its record). With the platforms just observed: a write that is in place is recorded as done now (audit-logged
 * once, marked `recovered`); one that is not is dropped, and the plan does it again if it is still wanted.
 * Runs inside the server's sync job, which never runs twice at once for one server.
 */
export async function settleIntents(
  ctx: AppContext,
  guildId: string,
  input: SyncPlanInput,
  groupId: string | null,
): Promise<{ recovered: number; dropped: number }> {
  const left = await ctx.db.select().from(syncIntents).where(eq(syncIntents.guildId, guildId));
  let recovered = 0;
  for (const row of left) {
    const action = row.action as unknown as SyncAction;
    if (actionInPlace(input, action)) {
      await recordDone(ctx.db, guildId, groupId, row.id, action, { ...row.details, recovered: true });
      recovered++;
    } else {
      await ctx.db.delete(syncIntents).where(eq(syncIntents.id, row.id));
    }
  }
  if (left.length > 0)
    ctx.log.info({ guildId, recovered, dropped: left.length - recovered }, 'sync: settled intents');
  return { recovered, dropped: left.length - recovered };
}

async function applyOne(
  ctx: AppContext,
  guildId: string,
  groupId: string | null,
  a: SyncAction,
): Promise<Record<string, unknown>> {
  const reason = `VRCLink sync: ${a.reason}`;
  switch (a.kind) {
    case 'addDiscordRole':
      await ctx.discord.addRole(guildId, a.discordUserId, a.roleId, reason);
      return {};
    case 'removeDiscordRole':
      await ctx.discord.removeRole(guildId, a.discordUserId, a.roleId, reason);
      return {};
  }
  if (!groupId) throw new Error('No VRChat group is linked to this server.');
  switch (a.kind) {
    case 'invite':
      return { outcome: await ctx.vrchat.inviteToGroup(groupId, a.vrcUserId) };
    case 'acceptRequest':
      return { outcome: await ctx.vrchat.respondJoinRequest(groupId, a.vrcUserId, 'accept') };
    case 'remove':
      return { wasMember: await ctx.vrchat.kickGroupMember(groupId, a.vrcUserId) };
    case 'addGroupRole':
      await ctx.vrchat.addGroupMemberRole(groupId, a.vrcUserId, a.roleId);
      return {};
    case 'removeGroupRole':
      await ctx.vrchat.removeGroupMemberRole(groupId, a.vrcUserId, a.roleId);
      return {};
  }
}
