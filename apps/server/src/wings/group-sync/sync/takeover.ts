import { and, eq, inArray, sql } from 'drizzle-orm';
import { auditLog, guildGroups } from '../../../db/schema/index.js';
import { botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { forgetInviteSent, invitesSentThrough } from '../../identity/index.js';
import { groupWritten } from './group-reads.js';

/** The audit actions of the sync's writes on a VRChat account (auditTypeOf, VRChat side). */
const VRCHAT_ACTIONS = [
  'Membership',
  'NoMembership',
  'GrantRolePermanent',
  'GrantRoleTemporary',
  'RevokeRole',
];

/** What VRChat keeps once done, in words (an invite is withdrawn instead, a temporary role left to the sync). */
const KEPT: Record<string, string> = {
  acceptRequest: 'join request accepted',
  remove: 'removed from the group',
  addGroupRole: 'group role given',
  removeGroupRole: 'group role taken',
};

/**
 * A takeover: the VRChat account's owner proved it, and the link moved away from the Discord member who had
 * linked it before (`moved_away`). What the bot did on VRChat through that earlier link has lost its cause.
 * Undone where VRChat allows: a pending invite the sync sent through it is withdrawn (and its record dropped,
 * so the owner's own roles may invite again). Temporary group roles need nothing here: the sync the link event
 * asks for takes back those the owner's roles do not grant. Reported where VRChat does not allow (audit entry
 * and staff log): join requests accepted, permanent roles given or taken, removals; taking a membership back
 * could wrong the real owner, so a manager decides. A transient VRChat failure is thrown (the job retries).
 */
export async function undoAfterTakeover(
  ctx: AppContext,
  moved: { discordUserId: string; vrcUserId: string },
): Promise<void> {
  const { discordUserId, vrcUserId } = moved;
  for (const groupId of await invitesSentThrough(ctx.db, discordUserId, vrcUserId)) {
    const withdrawn = await ctx.vrchat.cancelGroupInvite(groupId, vrcUserId);
    const guildIds = await guildsOf(ctx, groupId);
    await ctx.db.transaction(async (tx) => {
      await forgetInviteSent(tx, discordUserId, groupId);
      for (const guildId of guildIds)
        await audit(tx, {
          action: 'sync.takeover_undone',
          actor: botActor,
          guildId,
          targetId: vrcUserId,
          details: {
            vrcUserId,
            previousMemberId: discordUserId,
            groupId,
            undone: withdrawn ? 'invite withdrawn' : 'invite no longer pending',
            summary: `VRChat ${vrcUserId}: ${withdrawn ? 'invite withdrawn' : 'invite no longer pending'} (sent through an earlier link)`,
          },
        });
    });
    // A preview in any process reads the group again instead of showing the invite as still pending.
    if (withdrawn) for (const guildId of guildIds) await groupWritten(ctx, guildId, groupId);
  }
  // What the sync did on VRChat through the earlier link, as its audit entries say, per server.
  const done = await ctx.db
    .select({ guildId: auditLog.guildId, details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorId, 'bot'),
        eq(auditLog.targetId, vrcUserId),
        inArray(auditLog.action, VRCHAT_ACTIONS),
        sql`${auditLog.details}->>'discordUserId' = ${discordUserId}`,
      ),
    );
  const kept = new Map<string, { name: string | null; what: Set<string> }>();
  for (const row of done) {
    const kind = String(row.details?.kind ?? '');
    if (!row.guildId || !KEPT[kind]) continue;
    // A temporary role is the sync's to take back (above), not a manager's.
    if (row.details?.reason === 'GrantRoleTemporary') continue;
    const role = typeof row.details?.roleName === 'string' ? ` (${row.details.roleName})` : '';
    const entry = kept.get(row.guildId) ?? { name: null, what: new Set<string>() };
    entry.name ??= typeof row.details?.vrchatName === 'string' ? row.details.vrchatName : null;
    entry.what.add(`${KEPT[kind]}${role}`);
    kept.set(row.guildId, entry);
  }
  for (const [guildId, { name, what }] of kept) {
    const account = `${name ?? vrcUserId} (${vrcUserId})`;
    await audit(ctx.db, {
      action: 'sync.takeover_not_undone',
      actor: botActor,
      guildId,
      targetId: vrcUserId,
      details: {
        vrcUserId,
        vrchatName: name,
        previousMemberId: discordUserId,
        kept: [...what],
        summary: `VRChat ${account} was verified by its owner; done through the earlier link and not undone: ${[...what].join(', ')}`,
      },
    });
  }
}

async function guildsOf(ctx: AppContext, groupId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ guildId: guildGroups.guildId })
    .from(guildGroups)
    .where(eq(guildGroups.groupId, groupId));
  return rows.map((r) => r.guildId);
}
