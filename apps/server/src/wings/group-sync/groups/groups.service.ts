import { eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { namesIn } from '../../../db/name-lookup.js';
import { groupLinkCodes, guildGroups } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import { requireGuildPermission } from '../../access/index.js';
import { botAccountOf } from './group-accounts.js';
import { forgetGroupRoles } from './group-role-cache.js';
import type { GroupSettingsUpdate, LinkedGroup } from './groups.schemas.js';

export const NO_LINKED_GROUP = 'No VRChat group is linked to this server.';

/** The names of a server's linked groups, by `grp_` id (for the audit log's targets). */
export const groupNamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(
    db,
    { table: guildGroups, id: guildGroups.groupId, name: guildGroups.name, guild: guildGroups.guildId },
    ids,
    guildId,
  );

export type GroupLinkRow = typeof guildGroups.$inferSelect;

/** The server's linked group row (a server links at most one). */
export async function linkOf(db: Queryable, guildId: string, forUpdate = false) {
  const query = db.select().from(guildGroups).where(eq(guildGroups.guildId, guildId)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row as GroupLinkRow | undefined;
}

async function requireLink(db: Queryable, guildId: string, forUpdate = false) {
  const row = await linkOf(db, guildId, forUpdate);
  if (!row) throw missing(NO_LINKED_GROUP);
  return row;
}

/** The linked group as VRChat shows it now, with the server's settings; the spec's defaults when VRChat lost it. */
async function describe(ctx: AppContext, row: GroupLinkRow): Promise<LinkedGroup> {
  const group = await ctx.vrchat.getGroup(row.groupId);
  const account = row.vrchatAccount ?? ctx.vrchat.accounts()[0];
  const botAccount = account ? await botAccountOf(ctx, account) : null;
  if (!group) {
    return {
      id: row.groupId,
      name: 'Unknown',
      iconUrl: null,
      memberCount: 0,
      onlineMemberCount: 0,
      enabled: false,
      autoKick: false,
      botAccount,
    };
  }
  return {
    id: group.id,
    name: group.name,
    iconUrl: group.iconUrl,
    memberCount: group.memberCount,
    onlineMemberCount: group.onlineMemberCount,
    enabled: row.enabled,
    autoKick: row.autoKick,
    botAccount,
  };
}

export async function getLinkedGroup(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'ViewGuild');
  return describe(ctx, await requireLink(ctx.db, guildId));
}

/** 'Auto Remove Members without membership: off → on' for each switch that changed, with the group's name. */
function groupSettingsSummary(
  before: { enabled: boolean; autoKick: boolean; name: string },
  after: { enabled: boolean; autoKick: boolean },
) {
  const onOff = (v: boolean) => (v ? 'on' : 'off');
  const changes = [
    ['Enable Groups feature', before.enabled, after.enabled] as const,
    ['Auto Remove Members without membership', before.autoKick, after.autoKick] as const,
  ]
    .filter(([, was, now]) => was !== now)
    .map(([label, was, now]) => `${label}: ${onOff(was)} → ${onOff(now)}`);
  return `${before.name}: ${changes.join('; ') || 'nothing changed'}`;
}

/** Turns the group feature or auto-kick on or off; Admin only. */
export async function updateGroupSettings(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: GroupSettingsUpdate,
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const row = await ctx.db.transaction(async (tx) => {
    const before = await requireLink(tx, guildId, true);
    const [after] = await tx
      .update(guildGroups)
      .set(change)
      .where(eq(guildGroups.guildId, guildId))
      .returning();
    await audit(tx, {
      action: 'group.settings',
      actor,
      guildId,
      targetId: before.groupId,
      details: {
        summary: groupSettingsSummary(before, after),
        before: { enabled: before.enabled, autoKick: before.autoKick },
        after: { enabled: after.enabled, autoKick: after.autoKick },
      },
    });
    return after;
  });
  await requestGuildSync(ctx, guildId, 'group');
  return describe(ctx, row);
}

/** Unlinks the server's group (and forgets its pending link codes); Admin only. */
export async function unlinkGroup(ctx: AppContext, actor: Actor, guildId: string): Promise<void> {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  await ctx.db.transaction(async (tx) => {
    const row = await requireLink(tx, guildId, true);
    await tx.delete(guildGroups).where(eq(guildGroups.guildId, guildId));
    await tx.delete(groupLinkCodes).where(eq(groupLinkCodes.guildId, guildId));
    await audit(tx, {
      action: 'group.unlinked',
      actor,
      guildId,
      targetId: row.groupId,
      details: { name: row.name, enabled: row.enabled, autoKick: row.autoKick },
    });
    // No server links the group now: its cached roles go with the link.
    await forgetGroupRoles(tx, row.groupId);
  });
}
