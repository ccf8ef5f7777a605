import { and, asc, eq } from 'drizzle-orm';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { groupDiscordMappings } from '../../db/schema/index.js';
import { invalid, missing } from '../../errors.js';
import { audit } from '../audit/audit.service.js';
import { assignableRoleProblem } from '../guild-settings/assignable-role.js';
import {
  MAPPING_NOT_FOUND,
  type MappingScope,
  mappingDescriber,
  mappingSummary,
  mappingsChanged,
  requireMappingScope,
  saveMappingUpdate,
} from './mapping-access.js';
import {
  discordRoleActions,
  groupRoleProblem,
  offeredGroupRoles,
  offeredGuildRoles,
} from './mapping-roles.js';
import type { GroupDiscordMapping, GroupDiscordMappingUpdate } from './role-mappings.schemas.js';

type Row = typeof groupDiscordMappings.$inferSelect;

const toEntry = (row: Row): GroupDiscordMapping => ({
  id: row.id,
  discordRoleId: row.discordRoleId,
  groupRoleId: row.groupRoleId,
  action: row.action,
});

export async function listGroupToDiscord(ctx: AppContext, actor: Actor, guildId: string) {
  const scope = await requireMappingScope(ctx, actor, guildId);
  const rows = await ctx.db
    .select()
    .from(groupDiscordMappings)
    .where(eq(groupDiscordMappings.guildId, guildId))
    .orderBy(asc(groupDiscordMappings.createdAt), asc(groupDiscordMappings.id));
  return {
    guildRoles: offeredGuildRoles(scope.guild),
    groupRoles: offeredGroupRoles(await scope.groupRoles()),
    linkedGuildRoles: rows.map(toEntry),
  };
}

/** 'Add': an empty entry (no roles, action None), which does nothing until it is filled in. */
export async function createGroupToDiscord(ctx: AppContext, actor: Actor, guildId: string) {
  const describe = await mappingDescriber(
    await requireMappingScope(ctx, actor, guildId),
    'groupToDiscord',
    false,
  );
  const row = await ctx.db.transaction(async (tx) => {
    const [made] = await tx.insert(groupDiscordMappings).values({ guildId, action: 'None' }).returning();
    await audit(tx, {
      action: 'mapping.created',
      actor,
      guildId,
      targetId: made.id,
      details: {
        direction: 'groupToDiscord',
        summary: mappingSummary('groupToDiscord', describe, null, made),
        after: toEntry(made),
      },
    });
    return made;
  });
  await mappingsChanged(ctx, guildId);
  return { id: row.id };
}

/** The entry after the change, checked: 400 with a sentence for what cannot be saved. */
async function nextState(ctx: AppContext, scope: MappingScope, row: Row, change: GroupDiscordMappingUpdate) {
  const action = change.action ?? row.action;
  const groupRoleId = change.groupRoleId === undefined ? row.groupRoleId : change.groupRoleId;
  const wantedDiscordRole = change.discordRoleId === undefined ? row.discordRoleId : change.discordRoleId;
  // Only the grant actions give a Discord role; None keeps none.
  const discordRoleId = discordRoleActions.includes(action) ? wantedDiscordRole : null;
  if (groupRoleId && groupRoleId !== row.groupRoleId) {
    const problem = groupRoleProblem(await scope.groupRoles(), groupRoleId);
    if (problem) throw invalid(problem);
  }
  if (discordRoleId && discordRoleId !== row.discordRoleId) {
    // The bot gives this role, so it must be able to (below its highest role, not an integration's).
    const bot = await ctx.discord.botMember(scope.guild.id);
    const problem = assignableRoleProblem(scope.guild, bot?.roles ?? [], discordRoleId);
    if (problem) throw invalid(problem);
  }
  return { action, discordRoleId, groupRoleId };
}

/** Changes an entry's group role, action or Discord role (Admin); roles already saved are not checked again. */
export async function updateGroupToDiscord(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: GroupDiscordMappingUpdate,
) {
  const scope = await requireMappingScope(ctx, actor, guildId);
  const [row] = await ctx.db
    .select()
    .from(groupDiscordMappings)
    .where(and(eq(groupDiscordMappings.guildId, guildId), eq(groupDiscordMappings.id, change.id)));
  if (!row) throw missing(MAPPING_NOT_FOUND);
  const next = await nextState(ctx, scope, row, change);
  return saveMappingUpdate(ctx, actor, guildId, {
    table: groupDiscordMappings,
    direction: 'groupToDiscord',
    id: row.id,
    next,
    toEntry,
    describe: await mappingDescriber(scope, 'groupToDiscord'),
  });
}

export async function deleteGroupToDiscord(ctx: AppContext, actor: Actor, guildId: string, id: string) {
  const describe = await mappingDescriber(await requireMappingScope(ctx, actor, guildId), 'groupToDiscord');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(groupDiscordMappings)
      .where(and(eq(groupDiscordMappings.guildId, guildId), eq(groupDiscordMappings.id, id)))
      .returning();
    if (!row) throw missing(MAPPING_NOT_FOUND);
    await audit(tx, {
      action: 'mapping.deleted',
      actor,
      guildId,
      targetId: id,
      details: {
        direction: 'groupToDiscord',
        summary: mappingSummary('groupToDiscord', describe, row, null),
        before: toEntry(row),
      },
    });
  });
  await mappingsChanged(ctx, guildId);
}
