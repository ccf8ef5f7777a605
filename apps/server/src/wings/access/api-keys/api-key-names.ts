import { type Column, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { namesIn } from '../../../db/name-lookup.js';
import { apiKeys, guildMembers } from '../../../db/schema/index.js';
import { API_KEY_ACTOR } from './api-key-actor.js';

/**
 * An API key's name in another wing's query (null once the key is deleted): a subquery on this module's table,
 * so the caller sorts and filters by it in SQL without joining api_keys.
 */
export const apiKeyNameSql = (keyId: Column | SQL): SQL<string | null> =>
  sql`(select ${apiKeys.name} from ${apiKeys} where ${apiKeys.id} = ${keyId})`;

/** The name of the API key an actor id (`apikey:<key id>`) names; null for any other actor or a deleted key. */
export const apiKeyNameOfActorSql = (actorId: Column | SQL): SQL<string | null> =>
  sql`(select ${apiKeys.name} from ${apiKeys} where ${actorId} = ${API_KEY_ACTOR} || ${apiKeys.id}::text)`;

/** The current names of a server's API keys, by id (for the audit log's targets). */
export const apiKeyNamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(db, { table: apiKeys, id: apiKeys.id, name: apiKeys.name, guild: apiKeys.guildId }, ids, guildId);

/** The usernames of a server's members in the member mirror, by Discord id (for the audit log's targets). */
export const memberNamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(
    db,
    {
      table: guildMembers,
      id: guildMembers.userId,
      name: guildMembers.username,
      guild: guildMembers.guildId,
    },
    ids,
    guildId,
  );
