import { and, asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import type { discordGroupMappings, groupDiscordMappings } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, missing } from '../../../kernel/errors.js';
import { rowOrMissing } from '../../../kernel/rows.js';
import { isStale, MAPPING_CHANGED } from '../../../kernel/versions.js';
import {
  MAPPING_NOT_FOUND,
  type MappingDirection,
  type MappingScope,
  mappingDescriber,
  mappingSummary,
  mappingsChanged,
  requireMappingScope,
  saveMappingUpdate,
} from './mapping-access.js';

/** Either direction's row: the same columns, each table with its own action enum. */
export type MappingRow = typeof discordGroupMappings.$inferSelect | typeof groupDiscordMappings.$inferSelect;
type MappingValues = Pick<MappingRow, 'discordRoleId' | 'groupRoleId' | 'action'>;

/**
 * What tells the two directions apart on the server: their table and their checks. Listing, adding, changing
 * and removing entries, with audit and a sync after each change, are the same for both (below).
 */
export interface MappingSpec<Entry, Update extends { id: string; version?: number }> {
  direction: MappingDirection;
  table: typeof discordGroupMappings | typeof groupDiscordMappings;
  /** The entry after the change, checked: throws 400 with a sentence for what cannot be saved. */
  nextState: (
    ctx: AppContext,
    scope: MappingScope,
    row: MappingRow,
    change: Update,
  ) => Promise<MappingValues>;
  /** Why this entry may not be removed (the @everyone entry), or null. */
  undeletable?: (row: MappingRow, guildId: string) => string | null;
  /** Only for the entry type: the API schema's shape of a row. */
  readonly entry?: Entry;
}

// One table type for drizzle: the two differ only in their action enums, which every write was checked against.
const tableOf = (spec: { table: MappingSpec<unknown, never>['table'] }) =>
  spec.table as typeof discordGroupMappings;

export const toMappingEntry = <Entry>(row: MappingRow) =>
  ({
    id: row.id,
    discordRoleId: row.discordRoleId,
    groupRoleId: row.groupRoleId,
    action: row.action,
    version: row.version,
  }) as Entry;

/** A server's entries of one direction, oldest first. */
export function mappingRows(
  db: Queryable,
  spec: { table: MappingSpec<unknown, never>['table'] },
  guildId: string,
) {
  const table = tableOf(spec);
  return db
    .select()
    .from(table)
    .where(eq(table.guildId, guildId))
    .orderBy(asc(table.createdAt), asc(table.id));
}

/** 'Add': an empty entry (no roles, action None), which does nothing until it is filled in. */
export async function createMapping<E, U extends { id: string }>(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  spec: MappingSpec<E, U>,
) {
  const scope = await requireMappingScope(ctx, actor, guildId);
  // A new entry names no group role, so VRChat need not be asked for names.
  const describe = await mappingDescriber(scope, spec.direction, false);
  const table = tableOf(spec);
  const row = await ctx.db.transaction(async (tx) => {
    const [made] = await tx.insert(table).values({ guildId, action: 'None' }).returning();
    await audit(tx, {
      action: 'mapping.created',
      actor,
      guildId,
      targetId: made.id,
      details: {
        direction: spec.direction,
        summary: mappingSummary(spec.direction, describe, null, made),
        after: toMappingEntry<E>(made),
      },
    });
    return made;
  });
  await mappingsChanged(ctx, guildId);
  return { id: row.id };
}

/** Changes an entry's roles or action (Admin); roles already saved are not checked again. */
export async function updateMapping<E, U extends { id: string; version?: number }>(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  spec: MappingSpec<E, U>,
  change: U,
): Promise<E> {
  const scope = await requireMappingScope(ctx, actor, guildId);
  const table = tableOf(spec);
  const row = await rowOrMissing(
    ctx.db,
    table,
    and(eq(table.guildId, guildId), eq(table.id, change.id)),
    MAPPING_NOT_FOUND,
  );
  // Stale already: answered before the roles are checked (checked again under the row's lock).
  if (isStale(change.version, row.version)) throw conflict(MAPPING_CHANGED);
  const next = await spec.nextState(ctx, scope, row, change);
  return saveMappingUpdate(ctx, actor, guildId, {
    table: spec.table,
    direction: spec.direction,
    id: row.id,
    readVersion: change.version,
    next,
    toEntry: toMappingEntry<E>,
    describe: await mappingDescriber(scope, spec.direction),
  });
}

/** Removes an entry by its id: 404 when unknown, 400 with the reason for one that stays. */
export async function deleteMapping<E, U extends { id: string }>(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  spec: MappingSpec<E, U>,
  id: string,
) {
  const describe = await mappingDescriber(await requireMappingScope(ctx, actor, guildId), spec.direction);
  const table = tableOf(spec);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(table)
      .where(and(eq(table.guildId, guildId), eq(table.id, id)))
      .for('update');
    if (!row) throw missing(MAPPING_NOT_FOUND);
    const refused = spec.undeletable?.(row, guildId);
    if (refused) throw invalid(refused);
    await tx.delete(table).where(eq(table.id, id));
    await audit(tx, {
      action: 'mapping.deleted',
      actor,
      guildId,
      targetId: id,
      details: {
        direction: spec.direction,
        summary: mappingSummary(spec.direction, describe, row, null),
        before: toMappingEntry<E>(row),
      },
    });
  });
  await mappingsChanged(ctx, guildId);
}
