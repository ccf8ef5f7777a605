import { seedGuildIds, seedUserIds, vrchatSeed } from '@vrclink/simulator';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './db/client.js';
import { guestRoles, guildGroups, vrchatLinks, worlds } from './db/schema/index.js';

/**
 * Product-side demo data, so every feature can be clicked through before the server settings exist:
 * one VRChat account already linked to somebody else (the conflict path), guest-role entries in the
 * Hangout, the Hangout's VRChat group linked to its Discord server, and one world fed from both. Idempotent: only ever inserts
 * what is missing, never overwrites what a visitor changed.
 */
export const demoSeed = {
  /** Discord user 2 (akira.night) holds a verified link to VRChat 'Bastian'. */
  linkedDiscordUserId: seedUserIds.humans[1]!,
  linkedVrcUserId: vrchatSeed.userIds.Bastian!,
  hangout: seedGuildIds.hangout,
} as const;

export async function seedDemoData(database: Db): Promise<void> {
  // Several demo processes may start together on one database: one seeds, the others then find it done.
  await database.transaction(async (db) => {
    await db.execute(sql`select pg_advisory_xact_lock(72707371)`);
    await seedMissing(db);
  });
}

async function seedMissing(db: Tx): Promise<void> {
  const { hangout } = seedGuildIds;
  await db
    .insert(vrchatLinks)
    .values({
      discordUserId: demoSeed.linkedDiscordUserId,
      vrcUserId: demoSeed.linkedVrcUserId,
      vrchatName: 'Bastian',
      isVerified: true,
      ageVerification: 'Unverified',
      verifiedAt: new Date(),
    })
    .onConflictDoNothing();

  const existingEntries = await db.$count(guestRoles);
  if (existingEntries === 0) {
    await db.insert(guestRoles).values([
      { guildId: hangout.id, mainRoleId: hangout.roles.Admin, guestRoleId: hangout.roles.Guest, count: 3 },
      {
        guildId: hangout.id,
        mainRoleId: hangout.roles['Event Host'],
        guestRoleId: hangout.roles.Guest,
        count: 1,
      },
    ]);
  }

  const existingGroups = await db.$count(guildGroups);
  if (existingGroups === 0) {
    await db.insert(guildGroups).values({
      guildId: hangout.id,
      groupId: vrchatSeed.groupIds.hangout,
      name: 'VRC Hangout Official',
      iconUrl: null,
    });
  }

  if ((await db.$count(worlds)) === 0) {
    const groupRoles = vrchatSeed.roleIds.hangout;
    await db.insert(worlds).values({
      guildId: hangout.id,
      name: 'Hangout Lobby',
      includeGroupData: true,
      customData: 'Welcome to the VRChat Hangout!',
      discordEncodeRoles: [hangout.roles.Admin, hangout.roles.Moderator, hangout.roles.Verified],
      discordAlwaysEncodeRoles: [hangout.roles['Event Host'], hangout.roles.Guest],
      groupEncodeRoles: [groupRoles.owner, groupRoles.moderator, groupRoles.verified18],
      groupAlwaysEncodeRoles: [groupRoles.eventHost],
    });
  }
}
