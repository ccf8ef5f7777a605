import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { namesIn } from '../../db/name-lookup.js';
import { worldImages, worlds } from '../../db/schema/index.js';
import type { MyDataExport } from '../identity/index.js';

/** The current names of a server's worlds, by id (for the audit log's targets). */
export const worldNamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(db, { table: worlds, id: worlds.id, name: worlds.name, guild: worlds.guildId }, ids, guildId);

/** The current names of a server's images, by id (for the audit log's targets). */
export const imageNamesOf = (db: Queryable, guildId: string, ids: readonly string[]) =>
  namesIn(
    db,
    { table: worldImages, id: worldImages.id, name: worldImages.name, guild: worldImages.guildId },
    ids,
    guildId,
  );

/** The privacy export's section of the images a user uploaded. */
export async function imageDataOf(
  db: Queryable,
  userId: string,
): Promise<Pick<MyDataExport, 'worldImagesUploaded'>> {
  const images = await db.select().from(worldImages).where(eq(worldImages.createdBy, userId));
  return {
    worldImagesUploaded: images.map((i) => ({
      id: i.id,
      guildId: i.guildId,
      name: i.name,
      createdAt: i.createdAt.toISOString(),
    })),
  };
}
