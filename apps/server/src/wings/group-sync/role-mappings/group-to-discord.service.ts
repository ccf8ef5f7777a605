import { groupDiscordMappings } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid } from '../../../kernel/errors.js';
import { assignableRoleProblem } from '../../community/index.js';
import { type MappingScope, requireMappingScope } from './mapping-access.js';
import { type MappingRow, type MappingSpec, mappingRows, toMappingEntry } from './mapping-entries.js';
import { discordRoleActions, givenGuildRoles, groupRoleProblem, offeredGroupRoles } from './mapping-roles.js';
import type { GroupDiscordMapping, GroupDiscordMappingUpdate } from './role-mappings.schemas.js';

type Row = typeof groupDiscordMappings.$inferSelect;

export async function listGroupToDiscord(ctx: AppContext, actor: Actor, guildId: string) {
  const scope = await requireMappingScope(ctx, actor, guildId);
  const rows = await mappingRows(ctx.db, groupToDiscord, guildId);
  return {
    // The bot gives these roles: the ones it cannot are marked, so the picker shows them disabled.
    guildRoles: givenGuildRoles(
      scope.guild,
      (await ctx.discord.botMember(scope.guild.id).catch(() => null))?.roles ?? null,
    ),
    groupRoles: offeredGroupRoles(await scope.groupRoles()),
    linkedGuildRoles: rows.map(toMappingEntry<GroupDiscordMapping>),
  };
}

/** The entry after the change, checked: 400 with a sentence for what cannot be saved. */
async function nextState(
  ctx: AppContext,
  scope: MappingScope,
  row: MappingRow,
  change: GroupDiscordMappingUpdate,
) {
  const action = change.action ?? (row as Row).action;
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

/** Group to Discord: the Discord role is one the bot gives, so it must be able to; any entry can be removed. */
export const groupToDiscord: MappingSpec<GroupDiscordMapping, GroupDiscordMappingUpdate> = {
  direction: 'groupToDiscord',
  table: groupDiscordMappings,
  nextState,
};
