import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { worldDataCache, worlds } from '../../../db/schema/index.js';
import type { WorldRow } from './worlds.service.js';

/** A world's encoded body, ready to send: built once, served many times. */
export interface WorldBody {
  worldId: string;
  /** The encoded body (JSON, or LZW codes as characters): what the GitHub mirror stores too. */
  text: string;
  bytes: Buffer;
  /** A strong validator of the bytes, quoted. */
  etag: string;
  /** The world's updatedAt (ms) when it was built: a body of older settings is not served as current. */
  stamp: number;
  builtAt: number;
}

export function makeWorldBody(
  worldId: string,
  encoded: string | Buffer,
  stamp: number,
  builtAt: number,
): WorldBody {
  // Stored as its UTF-8 bytes (bytea): the text and the bytes are the same body either way.
  const bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : encoded;
  const text = typeof encoded === 'string' ? encoded : encoded.toString('utf8');
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  return { worldId, text, bytes, etag, stamp, builtAt };
}

/** The world and the last body stored for it (any settings), or undefined when there is no such world. */
export async function readWorldAndBody(
  db: Db,
  worldId: string,
): Promise<{ world: WorldRow; stored: WorldBody | undefined } | undefined> {
  const [row] = await db
    .select({ world: worlds, cache: worldDataCache })
    .from(worlds)
    .leftJoin(worldDataCache, eq(worldDataCache.worldId, worlds.id))
    .where(eq(worlds.id, worldId));
  if (!row) return undefined;
  const { world, cache } = row;
  const stored =
    cache &&
    makeWorldBody(world.id, cache.body, Date.parse(cache.settingsStamp), cache.generatedAt.getTime());
  return { world, stored: stored ?? undefined };
}

/** Keeps the body in the database: other processes take it from there, and it outlives a restart. */
export async function storeWorldBody(db: Db, body: WorldBody): Promise<void> {
  const values = {
    worldId: body.worldId,
    body: body.bytes,
    settingsStamp: new Date(body.stamp).toISOString(),
    generatedAt: new Date(body.builtAt),
  };
  await db
    .insert(worldDataCache)
    .values(values)
    .onConflictDoUpdate({ target: worldDataCache.worldId, set: values });
}

export async function deleteStoredBody(db: Db, worldId: string): Promise<void> {
  await db.delete(worldDataCache).where(eq(worldDataCache.worldId, worldId));
}
