import { and, asc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { discordGroupMappings } from '../../db/schema/index.js';
import { invalid, missing } from '../../errors.js';
import { audit } from '../audit/audit.service.js';
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
  discordRoleProblem,
  EVERYONE_ACTIONS,
  EVERYONE_ROLE_FIXED,
  everyoneActions,
  groupRoleActions,
  groupRoleProblem,
  groupRoleRankProblem,
  offeredGroupRoles,
  offeredGuildRoles,
} from './mapping-roles.js';
import type { DiscordGroupMapping, DiscordGroupMappingUpdate } from './role-mappings.schemas.js';

export const EVERYONE_NOT_DELETABLE =
  'The @everyone entry cannot be deleted; set its action to None instead.';

type Row = typeof discordGroupMappings.$inferSelect;

const toEntry = (row: Row): DiscordGroupMapping => ({
  id: row.id,
  discordRoleId: row.discordRoleId,
  groupRoleId: row.groupRoleId,
  action: row.action,
});

const rowsOf = (db: Queryable, guildId: string) =>
  db
    .select()
    .from(discordGroupMappings)
    .where(eq(discordGroupMappings.guildId, guildId))
    .orderBy(asc(discordGroupMappings.createdAt), asc(discordGroupMappings.id));

/** The @everyone entry (discordRoleId = the server's id), made with action None the first time it is asked for. */
async function everyoneEntry(ctx: AppContext, guildId: string): Promise<Row> {
  return ctx.db.transaction(async (tx) => {
    // Serialised per server so two first visits make one entry.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`discord_group_everyone:${guildId}`}))`);
    const [found] = await tx
      .select()
      .from(discordGroupMappings)
      .where(and(eq(discordGroupMappings.guildId, guildId), eq(discordGroupMappings.discordRoleId, guildId)))
      .orderBy(asc(discordGroupMappings.createdAt))
      .limit(1);
    if (found) return found;
    const [made] = await tx
      .insert(discordGroupMappings)
      .values({ guildId, discordRoleId: guildId, action: 'None' })
      .returning();
    return made;
  });
}

export async function listDiscordToGroup(ctx: AppContext, actor: Actor, guildId: string) {
  const scope = await requireMappingScope(ctx, actor, guildId);
  const everyone = await everyoneEntry(ctx, guildId);
  const rows = await rowsOf(ctx.db, guildId);
  return {
    guildRoles: offeredGuildRoles(scope.guild),
    groupRoles: offeredGroupRoles(await scope.groupRoles()),
    linkedGroupRoles: rows.filter((r) => r.id !== everyone.id && r.discordRoleId !== guildId).map(toEntry),
    everyoneRole: toEntry(everyone),
  };
}

/** 'Add': an empty entry (no roles, action None), which does nothing until it is filled in. */
export async function createDiscordToGroup(ctx: AppContext, actor: Actor, guildId: string) {
  const describe = await mappingDescriber(
    await requireMappingScope(ctx, actor, guildId),
    'discordToGroup',
    false,
  );
  const row = await ctx.db.transaction(async (tx) => {
    const [made] = await tx.insert(discordGroupMappings).values({ guildId, action: 'None' }).returning();
    await audit(tx, {
      action: 'mapping.created',
      actor,
      guildId,
      targetId: made.id,
      details: {
        direction: 'discordToGroup',
        summary: mappingSummary('discordToGroup', describe, null, made),
        after: toEntry(made),
      },
    });
    return made;
  });
  await mappingsChanged(ctx, guildId);
  return { id: row.id };
}

async function findRow(ctx: AppContext, guildId: string, id: string): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(discordGroupMappings)
    .where(and(eq(discordGroupMappings.guildId, guildId), eq(discordGroupMappings.id, id)));
  if (!row) throw missing(MAPPING_NOT_FOUND);
  return row;
}

/** The entry after the change, checked: 400 with a sentence for what cannot be saved. */
async function nextState(scope: MappingScope, row: Row, change: DiscordGroupMappingUpdate) {
  const isEveryone = row.discordRoleId === scope.guild.id;
  const action = change.action ?? row.action;
  const discordRoleId = change.discordRoleId === undefined ? row.discordRoleId : change.discordRoleId;
  const wantedGroupRole = change.groupRoleId === undefined ? row.groupRoleId : change.groupRoleId;
  // Only Grant and Revoke name a group role; the others keep none.
  const groupRoleId = groupRoleActions.includes(action) ? wantedGroupRole : null;
  if (isEveryone) {
    if (discordRoleId !== row.discordRoleId) throw invalid(EVERYONE_ROLE_FIXED);
    if (!everyoneActions.includes(action)) throw invalid(EVERYONE_ACTIONS);
  } else if (discordRoleId && discordRoleId !== row.discordRoleId) {
    const problem = discordRoleProblem(scope.guild, discordRoleId);
    if (problem) throw invalid(problem);
  }
  if (groupRoleId && groupRoleId !== row.groupRoleId) {
    const roles = await scope.groupRoles();
    const problem = groupRoleProblem(roles, groupRoleId);
    if (problem) throw invalid(problem);
    // The bot gives or takes this group role, so it must rank above it (as the Discord side checks).
    const bot = await scope.botInGroup();
    const rank = bot && groupRoleRankProblem(roles, bot, groupRoleId);
    if (rank) throw invalid(rank);
  }
  return { action, discordRoleId, groupRoleId };
}

/** Changes an entry's Discord role, action or group role (Admin); roles already saved are not checked again. */
export async function updateDiscordToGroup(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  change: DiscordGroupMappingUpdate,
) {
  const scope = await requireMappingScope(ctx, actor, guildId);
  const row = await findRow(ctx, guildId, change.id);
  const next = await nextState(scope, row, change);
  return saveMappingUpdate(ctx, actor, guildId, {
    table: discordGroupMappings,
    direction: 'discordToGroup',
    id: row.id,
    next,
    toEntry,
    describe: await mappingDescriber(scope, 'discordToGroup'),
  });
}

export async function deleteDiscordToGroup(ctx: AppContext, actor: Actor, guildId: string, id: string) {
  const describe = await mappingDescriber(await requireMappingScope(ctx, actor, guildId), 'discordToGroup');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(discordGroupMappings)
      .where(and(eq(discordGroupMappings.guildId, guildId), eq(discordGroupMappings.id, id)))
      .for('update');
    if (!row) throw missing(MAPPING_NOT_FOUND);
    if (row.discordRoleId === guildId) throw invalid(EVERYONE_NOT_DELETABLE);
    await tx.delete(discordGroupMappings).where(eq(discordGroupMappings.id, id));
    await audit(tx, {
      action: 'mapping.deleted',
      actor,
      guildId,
      targetId: id,
      details: {
        direction: 'discordToGroup',
        summary: mappingSummary('discordToGroup', describe, row, null),
        before: toEntry(row),
      },
    });
  });
  await mappingsChanged(ctx, guildId);
}
