import { and, eq, ne } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { discordGroupMappings, groupDiscordMappings } from '../../../db/schema/index.js';

/** A server's role mappings in both directions that act (None left out). */
export async function activeMappingsOf(db: Queryable, guildId: string) {
  const [d2g, g2d] = await Promise.all([
    db
      .select()
      .from(discordGroupMappings)
      .where(and(eq(discordGroupMappings.guildId, guildId), ne(discordGroupMappings.action, 'None'))),
    db
      .select()
      .from(groupDiscordMappings)
      .where(and(eq(groupDiscordMappings.guildId, guildId), ne(groupDiscordMappings.action, 'None'))),
  ]);
  return { d2g, g2d };
}
