import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guests } from '../../../db/schema/index.js';
import type { MyDataExport } from '../../identity/index.js';

/** A server's guests named by VRChat name only (no Discord account), each with their guest role; being removed: gone already. */
export async function vrchatOnlyGuestsOf(db: Queryable, guildId: string) {
  return db
    .select({ vrcDisplayName: guests.guestVrcName, guestRoleId: guests.guestRoleId })
    .from(guests)
    .where(
      and(
        eq(guests.guildId, guildId),
        isNull(guests.guestDiscordId),
        isNotNull(guests.guestVrcName),
        ne(guests.state, 'removing'),
      ),
    );
}

/** The privacy export's guest sections: the guests a user hosts, and where they are someone's guest. */
export async function guestDataOf(
  db: Queryable,
  userId: string,
): Promise<Pick<MyDataExport, 'guestsIHost' | 'guestOf'>> {
  const [hosted, guestOf] = await Promise.all([
    db.select().from(guests).where(eq(guests.hostUserId, userId)),
    db.select().from(guests).where(eq(guests.guestDiscordId, userId)),
  ]);
  return {
    guestsIHost: hosted.map((g) => ({
      guildId: g.guildId,
      guestRoleId: g.guestRoleId,
      guestDiscordId: g.guestDiscordId,
      guestUsername: g.guestUsername,
      guestVrcId: g.guestVrcId,
      guestVrcName: g.guestVrcName,
      createdAt: g.createdAt.toISOString(),
    })),
    guestOf: guestOf.map((g) => ({
      guildId: g.guildId,
      hostUserId: g.hostUserId,
      guestRoleId: g.guestRoleId,
      createdAt: g.createdAt.toISOString(),
    })),
  };
}
