import { and, eq, sql } from 'drizzle-orm';
import { botActor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { groupInvites, guildMembers } from '../../db/schema/index.js';
import { DiscordPermissionError } from '../../platforms/discord/errors.js';
import { VrchatError } from '../../platforms/vrchat/errors.js';
import { audit } from '../audit/audit.service.js';
import type { SyncAction } from './sync-plan.js';

/** A problem met while applying (VRChat or Discord refused): shown on the tabs until a sync runs without it. */
export interface ApplyWarning {
  kind: 'discordRole' | 'groupAction';
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

/**
 * Carries out the plan's actions one after another through the platform adapters (which pace themselves
 * below the platforms' limits). Each one done is audit-logged with actor 'bot'. A transient failure stops
 * the run and is thrown, so the job is retried with backoff; the retry observes again and so does only
 * what is still missing. Refusals (hierarchy, a permission) are recorded as warnings and skipped.
 */
export async function applyActions(
  ctx: AppContext,
  guildId: string,
  groupId: string | null,
  actions: readonly SyncAction[],
  describe: (a: SyncAction) => Record<string, unknown>,
): Promise<ApplyResult> {
  const result: ApplyResult = { applied: 0, failed: 0, writes: 0, warnings: [] };
  for (const action of actions) {
    result.writes++;
    try {
      const details = await applyOne(ctx, guildId, groupId, action);
      result.applied++;
      await audit(ctx.db, {
        action: auditTypeOf(action),
        actor: botActor,
        guildId,
        targetId: 'vrcUserId' in action ? action.vrcUserId : action.discordUserId,
        details: { ...describe(action), ...details },
      });
    } catch (err) {
      if (isTransient(err)) throw err;
      result.failed++;
      const message = (err as Error).message;
      const subject = 'roleId' in action ? action.roleId : action.kind;
      const kind =
        action.kind === 'addDiscordRole' || action.kind === 'removeDiscordRole'
          ? 'discordRole'
          : 'groupAction';
      result.warnings.push({ kind, subject, message });
      ctx.log.warn({ err, guildId, action }, 'sync: action refused');
      await audit(ctx.db, {
        action: 'sync.failed',
        actor: botActor,
        guildId,
        targetId: 'vrcUserId' in action ? action.vrcUserId : action.discordUserId,
        details: { ...describe(action), error: message },
      });
    }
  }
  return result;
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
      await mirrorRoleChange(ctx, guildId, a.discordUserId, a.roleId, true);
      return {};
    case 'removeDiscordRole':
      await ctx.discord.removeRole(guildId, a.discordUserId, a.roleId, reason);
      await mirrorRoleChange(ctx, guildId, a.discordUserId, a.roleId, false);
      return {};
  }
  if (!groupId) throw new Error('No VRChat group is linked to this server.');
  switch (a.kind) {
    case 'invite': {
      // Sent first, recorded after: a crash in between leaves a pending invite the next sync sees.
      const outcome = await ctx.vrchat.inviteToGroup(groupId, a.vrcUserId);
      if (a.discordUserId) {
        await ctx.db
          .insert(groupInvites)
          .values({ discordUserId: a.discordUserId, groupId, vrcUserId: a.vrcUserId })
          .onConflictDoNothing();
      }
      return { outcome };
    }
    case 'acceptRequest':
      await ctx.vrchat.respondJoinRequest(groupId, a.vrcUserId, 'accept');
      return {};
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

/**
 * Tells the member mirror (what the next sync observes) about the bot's own role change at once: without
 * the Server Members intent no member event ever does, and with it a retry may observe before the event
 * arrives. Either way the next run would give or take the same role again. The event, when it comes, agrees.
 */
async function mirrorRoleChange(
  ctx: AppContext,
  guildId: string,
  userId: string,
  roleId: string,
  add: boolean,
) {
  const without = sql`array_remove(${guildMembers.roleIds}, ${roleId})`;
  await ctx.db
    .update(guildMembers)
    .set({ roleIds: add ? sql`array_append(${without}, ${roleId})` : without })
    .where(and(eq(guildMembers.guildId, guildId), eq(guildMembers.userId, userId)));
}
