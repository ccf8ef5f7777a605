import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, AnyPgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.js';
import {
  apiKeys,
  guildGroups,
  guildMembers,
  users,
  vrchatLinks,
  worldImages,
  worlds,
} from '../../../db/schema/index.js';

export type AuditTargetKind = 'member' | 'vrchatAccount' | 'role' | 'world' | 'group' | 'apiKey' | 'image';
export interface AuditTarget {
  kind: AuditTargetKind;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SNOWFLAKE = /^\d{17,20}$/;

/**
 * The names of a page's audit targets, read now (a target renamed since shows its current name; one deleted
 * since shows its id only). Targets are told apart by their id's shape and the table that knows them.
 */
export async function auditTargetNames(
  db: Db,
  guildId: string,
  roles: readonly { id: string; name: string }[],
  targetIds: readonly (string | null)[],
): Promise<Map<string, AuditTarget>> {
  const ids = [...new Set(targetIds.filter((id): id is string => !!id))];
  const uuids = ids.filter((id) => UUID.test(id));
  const snowflakes = ids.filter((id) => SNOWFLAKE.test(id));
  const vrcIds = ids.filter((id) => id.startsWith('usr_'));
  const groupIds = ids.filter((id) => id.startsWith('grp_'));
  const lookup = (
    ids: string[],
    table: AnyPgTable,
    id: AnyPgColumn,
    name: AnyPgColumn,
    guild?: AnyPgColumn,
  ): Promise<{ id: string; name: string | null }[]> =>
    ids.length
      ? db
          .select({ id: sql<string>`${id}::text`, name: sql<string | null>`${name}` })
          .from(table)
          .where(and(guild ? eq(guild, guildId) : undefined, inArray(id, ids)))
      : Promise.resolve([]);
  const [worldRows, keyRows, imageRows, memberRows, userRows, vrcRows, groupRows] = await Promise.all([
    lookup(uuids, worlds, worlds.id, worlds.name, worlds.guildId),
    lookup(uuids, apiKeys, apiKeys.id, apiKeys.name, apiKeys.guildId),
    lookup(uuids, worldImages, worldImages.id, worldImages.name, worldImages.guildId),
    lookup(snowflakes, guildMembers, guildMembers.userId, guildMembers.username, guildMembers.guildId),
    lookup(snowflakes, users, users.id, users.username),
    lookup(vrcIds, vrchatLinks, vrchatLinks.vrcUserId, vrchatLinks.vrchatName),
    lookup(groupIds, guildGroups, guildGroups.groupId, guildGroups.name, guildGroups.guildId),
  ]);
  const names = new Map<string, AuditTarget>();
  const add = (kind: AuditTargetKind, rows: { id: string; name: string | null }[]) => {
    for (const r of rows) if (r.name && !names.has(r.id)) names.set(r.id, { kind, name: r.name });
  };
  add('world', worldRows);
  add('apiKey', keyRows);
  add('image', imageRows);
  add('member', memberRows);
  add('member', userRows);
  add('vrchatAccount', vrcRows);
  add('group', groupRows);
  add(
    'role',
    roles.filter((r) => ids.includes(r.id)),
  );
  return names;
}
