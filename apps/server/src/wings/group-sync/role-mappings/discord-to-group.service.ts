import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { discordGroupMappings } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid } from '../../../kernel/errors.js';
import { type MappingScope, requireMappingScope } from './mapping-access.js';
import { type MappingRow, type MappingSpec, mappingRows, toMappingEntry } from './mapping-entries.js';
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
const toEntry = toMappingEntry<DiscordGroupMapping>;

/** The server's @everyone entry, the oldest if two were ever made. */
async function findEveryoneEntry(db: Queryable, guildId: string): Promise<Row | undefined> {
  const [found] = await db
    .select()
    .from(discordGroupMappings)
    .where(and(eq(discordGroupMappings.guildId, guildId), eq(discordGroupMappings.discordRoleId, guildId)))
    .orderBy(asc(discordGroupMappings.createdAt))
    .limit(1);
  return found;
}

/**
 * The @everyone entry (discordRoleId = the server's id), made with action None the first time it is asked for.
 * Read plainly once it exists: a lock per read would queue every manager opening the dialog behind each other.
 */
async function everyoneEntry(ctx: AppContext, guildId: string): Promise<Row> {
  const existing = await findEveryoneEntry(ctx.db, guildId);
  if (existing) return existing;
  return ctx.db.transaction(async (tx) => {
    // Serialised per server so two first visits make one entry.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`discord_group_everyone:${guildId}`}))`);
    const found = await findEveryoneEntry(tx, guildId);
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
  const rows = await mappingRows(ctx.db, discordToGroup, guildId);
  return {
    guildRoles: offeredGuildRoles(scope.guild),
    groupRoles: offeredGroupRoles(await scope.groupRoles()),
    linkedGroupRoles: rows.filter((r) => r.id !== everyone.id && r.discordRoleId !== guildId).map(toEntry),
    everyoneRole: toEntry(everyone),
  };
}

/** The entry after the change, checked: 400 with a sentence for what cannot be saved. */
async function nextState(scope: MappingScope, row: MappingRow, change: DiscordGroupMappingUpdate) {
  const isEveryone = row.discordRoleId === scope.guild.id;
  const action = change.action ?? (row as Row).action;
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

/** Discord to group: the @everyone entry stays and takes None or Membership only; the group role is checked. */
export const discordToGroup: MappingSpec<DiscordGroupMapping, DiscordGroupMappingUpdate> = {
  direction: 'discordToGroup',
  table: discordGroupMappings,
  nextState: (_ctx, scope, row, change) => nextState(scope, row, change),
  undeletable: (row, guildId) => (row.discordRoleId === guildId ? EVERYONE_NOT_DELETABLE : null),
};
