import { type Column, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { namesIn } from '../../../db/name-lookup.js';
import { users } from '../../../db/schema/index.js';

/**
 * A user's Discord username in another wing's query (null for an unknown id): a subquery on this module's
 * table, so the caller sorts and filters by it in SQL without joining users.
 */
export const usernameSql = (userId: Column | SQL): SQL<string | null> =>
  sql`(select ${users.username} from ${users} where ${users.id} = ${userId})`;

/** The Discord usernames of these users, by id. */
export const usernamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(db, { table: users, id: users.id, name: users.username }, ids, guildId);
