import type { Db } from '../../../db/client.js';
import { apiKeyNamesOf, memberNamesOf } from '../../access/index.js';
import { groupNamesOf } from '../../group-sync/index.js';
import { usernamesOf, vrchatNamesOf } from '../../identity/index.js';
import { imageNamesOf, worldNamesOf } from '../../worlds/index.js';

export type AuditTargetKind = 'member' | 'vrchatAccount' | 'role' | 'world' | 'group' | 'apiKey' | 'image';
export interface AuditTarget {
  kind: AuditTargetKind;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SNOWFLAKE = /^\d{17,20}$/;

/**
 * The names of a page's audit targets, read now (a target renamed since shows its current name; one deleted
 * since shows its id only). Targets are told apart by their id's shape and the wing that knows them.
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
  const [worldRows, keyRows, imageRows, memberRows, userRows, vrcRows, groupRows] = await Promise.all([
    worldNamesOf(db, guildId, uuids),
    apiKeyNamesOf(db, guildId, uuids),
    imageNamesOf(db, guildId, uuids),
    memberNamesOf(db, guildId, snowflakes),
    usernamesOf(db, guildId, snowflakes),
    vrchatNamesOf(db, guildId, vrcIds),
    groupNamesOf(db, guildId, groupIds),
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
