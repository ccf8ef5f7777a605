import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { worldMirrorStatus } from '../../../db/schema/index.js';

export type MirrorStatusRow = typeof worldMirrorStatus.$inferSelect;

/** A run that pushed (or had nothing to push): the error and the failure count are cleared. */
export async function recordMirrorSuccess(
  db: Db,
  remote: string,
  run: { commit: string | null; worlds: number; worldsNotBuilt: number },
): Promise<void> {
  const now = new Date();
  const values = {
    remote,
    lastRunAt: now,
    lastSuccessAt: now,
    worlds: run.worlds,
    worldsNotBuilt: run.worldsNotBuilt,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    ...(run.commit ? { lastCommit: run.commit, lastCommitAt: now } : {}),
  };
  await db
    .insert(worldMirrorStatus)
    .values(values)
    .onConflictDoUpdate({ target: worldMirrorStatus.remote, set: values });
}

/** A run that failed: kept (with how many failed in a row) until a run succeeds. */
export async function recordMirrorFailure(db: Db, remote: string, message: string): Promise<void> {
  const now = new Date();
  await db
    .insert(worldMirrorStatus)
    .values({ remote, lastRunAt: now, lastError: message, lastErrorAt: now, consecutiveFailures: 1 })
    .onConflictDoUpdate({
      target: worldMirrorStatus.remote,
      set: {
        lastRunAt: now,
        lastError: message,
        lastErrorAt: now,
        consecutiveFailures: sql`${worldMirrorStatus.consecutiveFailures} + 1`,
      },
    });
}

export async function readMirrorStatus(db: Db, remote: string): Promise<MirrorStatusRow | null> {
  const [row] = await db.select().from(worldMirrorStatus).where(eq(worldMirrorStatus.remote, remote));
  return row ?? null;
}
