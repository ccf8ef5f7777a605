import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { syncIntents } from '../../../db/schema/index.js';

/**
 * The Discord role writes the sync has in flight for one member (recorded as intents before each call):
 * role id → true for a role it gives, false for one it takes.
 */
export async function discordWritesInFlight(
  db: Queryable,
  guildId: string,
  userId: string,
): Promise<Map<string, boolean>> {
  const rows = await db
    .select({ action: syncIntents.action })
    .from(syncIntents)
    .where(and(eq(syncIntents.guildId, guildId), sql`${syncIntents.action}->>'discordUserId' = ${userId}`));
  const writes = new Map<string, boolean>();
  for (const { action } of rows) {
    if (action.kind === 'addDiscordRole') writes.set(String(action.roleId), true);
    if (action.kind === 'removeDiscordRole') writes.set(String(action.roleId), false);
  }
  return writes;
}

/**
 * Whether a member's role change is only the sync's own writes coming back as GUILD_MEMBER_UPDATE (so it
 * needs no further sync): every role given or taken matches a write in flight.
 */
export function onlyOwnWrites(
  before: readonly string[],
  after: readonly string[],
  inFlight: ReadonlyMap<string, boolean>,
): boolean {
  const added = after.filter((r) => !before.includes(r));
  const removed = before.filter((r) => !after.includes(r));
  if (added.length + removed.length === 0) return false;
  return added.every((r) => inFlight.get(r) === true) && removed.every((r) => inFlight.get(r) === false);
}
