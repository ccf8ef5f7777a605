import { eq } from 'drizzle-orm';
import type { discordGroupMappings, groupDiscordMappings } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, missing } from '../../../kernel/errors.js';
import { requestGuildSync } from '../../../kernel/sync-trigger.js';
import { isStale, MAPPING_CHANGED } from '../../../kernel/versions.js';
import type { DiscordGuildInfo, VrchatGroupRole } from '../../../platforms/ports.js';
import { requireGuildPermission } from '../../access/index.js';
import { recentGroupRoles } from '../groups/group-role-cache.js';
import { linkOf, NO_LINKED_GROUP } from '../groups/groups.service.js';

export const MAPPING_NOT_FOUND = 'Role mapping not found.';

export interface MappingScope {
  guild: DiscordGuildInfo;
  groupId: string;
  /**
   * The linked group's roles as VRChat has them (asked for once per request, when needed): the kept copy when
   * it is younger than a minute, else read again, so opening the mapping dialogs refreshes the copy the world
   * list reads too.
   */
  groupRoles: () => Promise<VrchatGroupRole[]>;
  /** The bot's standing in the group (owner, roles held); null when it is not a member (the doctor says so). */
  botInGroup: () => Promise<{ isOwner: boolean; roleIds: string[] } | null>;
}

/** Every mapping route: Admin of the server, which must have a linked VRChat group (404 otherwise). */
export async function requireMappingScope(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
): Promise<MappingScope> {
  const { guild } = await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const link = await linkOf(ctx.db, guildId);
  if (!link) throw missing(NO_LINKED_GROUP);
  let roles: Promise<VrchatGroupRole[]> | undefined;
  return {
    guild,
    groupId: link.groupId,
    groupRoles: () => {
      roles ??= recentGroupRoles(ctx, link.groupId);
      return roles;
    },
    botInGroup: async () => {
      const botId = await ctx.vrchat.currentUserId(link.groupId);
      const [group, member] = await Promise.all([
        ctx.vrchat.getGroup(link.groupId),
        ctx.vrchat.getGroupMember(link.groupId, botId),
      ]);
      const isOwner = group?.ownerId === botId;
      if (!isOwner && member?.membershipStatus !== 'member') return null;
      return { isOwner, roleIds: member?.roleIds ?? [] };
    },
  };
}

/** After a saved change: the bot applies the mappings soon (bursts of edits collapse into one sync). */
export const mappingsChanged = (ctx: AppContext, guildId: string) =>
  requestGuildSync(ctx, guildId, 'mappings');

export type MappingDirection = 'discordToGroup' | 'groupToDiscord';
type MappingValues = { discordRoleId: string | null; groupRoleId: string | null; action: string };
/** Names an entry for an audit summary: 'Event Host · Grant · Staff' (Discord→group) or the other way round. */
export type DescribeMapping = (entry: MappingValues) => string;

const directionLabels: Record<MappingDirection, string> = {
  discordToGroup: 'Discord → group mapping',
  groupToDiscord: 'Group → Discord mapping',
};

/**
 * The role names an audit summary needs, read before any transaction opens (VRChat is never called inside
 * one): Discord roles from the bot's view of the server, group roles from VRChat; a failed read names by id.
 */
export async function mappingDescriber(
  scope: MappingScope,
  direction: MappingDirection,
  /** False for a new, empty entry: it names no group role, so VRChat need not be asked. */
  readGroupRoles = true,
): Promise<DescribeMapping> {
  const groupRoles = readGroupRoles ? await scope.groupRoles().catch(() => [] as VrchatGroupRole[]) : [];
  const discord = (id: string | null) =>
    id === null
      ? 'none'
      : id === scope.guild.id
        ? '@everyone'
        : (scope.guild.roles.find((r) => r.id === id)?.name ?? id);
  const group = (id: string | null) =>
    id === null ? 'none' : (groupRoles.find((r) => r.id === id)?.name ?? id);
  return (e) =>
    direction === 'discordToGroup'
      ? `${discord(e.discordRoleId)} · ${e.action} · ${group(e.groupRoleId)}`
      : `${group(e.groupRoleId)} · ${e.action} · ${discord(e.discordRoleId)}`;
}

/** 'Discord → group mapping: Event Host · Grant · Staff → Event Host · Revoke · Staff' (added, changed, deleted). */
export function mappingSummary(
  direction: MappingDirection,
  describe: DescribeMapping,
  before: MappingValues | null,
  after: MappingValues | null,
): string {
  const label = directionLabels[direction];
  if (!before && after) return `Added ${label}: ${describe(after)}`;
  if (before && !after) return `Deleted ${label}: ${describe(before)}`;
  if (before && after) return `${label}: ${describe(before)} → ${describe(after)}`;
  return label;
}

/** Either direction's table: the same columns, each with its own actions. */
type MappingTable = typeof discordGroupMappings | typeof groupDiscordMappings;
type MappingRow = typeof discordGroupMappings.$inferSelect | typeof groupDiscordMappings.$inferSelect;

/**
 * Saves an entry's next state with the row locked, audit-logged with before and after, then asks for a sync.
 * Answers the entry as `toEntry` shows it.
 */
export async function saveMappingUpdate<Row extends MappingRow, Entry>(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  mapping: {
    table: MappingTable;
    direction: MappingDirection;
    id: string;
    /** The version the entry was read at; a save over another manager's change answers 409. */
    readVersion?: number;
    next: Partial<Row>;
    toEntry: (row: Row) => Entry;
    /** Read before the transaction (see `mappingDescriber`). */
    describe: DescribeMapping;
  },
): Promise<Entry> {
  // One table type for drizzle (the two differ only in their action enums, which `next` was checked against).
  const table = mapping.table as typeof discordGroupMappings;
  const updated = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(table).where(eq(table.id, mapping.id)).for('update');
    if (!current) throw missing(MAPPING_NOT_FOUND);
    if (isStale(mapping.readVersion, current.version)) throw conflict(MAPPING_CHANGED);
    const [result] = await tx
      .update(table)
      .set({
        ...(mapping.next as Partial<typeof discordGroupMappings.$inferInsert>),
        version: current.version + 1,
      })
      .where(eq(table.id, mapping.id))
      .returning();
    await audit(tx, {
      action: 'mapping.updated',
      actor,
      guildId,
      targetId: mapping.id,
      details: {
        direction: mapping.direction,
        summary: mappingSummary(mapping.direction, mapping.describe, current, result),
        before: mapping.toEntry(current as Row),
        after: mapping.toEntry(result as Row),
      },
    });
    return result as Row;
  });
  await mappingsChanged(ctx, guildId);
  return mapping.toEntry(updated);
}
