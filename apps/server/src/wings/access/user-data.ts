import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { apiKeys, guildMembers, guildPermissions } from '../../db/schema/index.js';

/** What the access wing holds about a user, for the privacy export: permissions, memberships, keys they made. */
export async function accessRowsOfUser(db: Queryable, userId: string) {
  const [permissions, memberships, keys] = await Promise.all([
    db.select().from(guildPermissions).where(eq(guildPermissions.userId, userId)),
    db.select().from(guildMembers).where(eq(guildMembers.userId, userId)),
    db.select().from(apiKeys).where(eq(apiKeys.createdBy, userId)),
  ]);
  return { permissions, memberships, keys };
}
