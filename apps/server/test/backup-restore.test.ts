import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { startOwnSimulator } from '../src/demo.js';
import { LAX_SIMULATOR } from '../src/platforms/testing.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import { createScratchDatabase, pgliteTemplate } from './db.js';
import { freePort, startServerProcess, waitUntilReady } from './server-process.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const adminUrl = process.env.DATABASE_URL;
const USER = { id: '1499999999999999001', username: 'kept_in_backup', globalName: null, avatar: null };

/** Runs deploy/backup.sh or deploy/restore.sh as an operator does, with only the variables it reads. */
function script(name: 'backup' | 'restore', file: string, env: Record<string, string>): string {
  return execFileSync('sh', [join(repoRoot, `deploy/${name}.sh`), file], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
}

async function keptUser(database: Database): Promise<unknown> {
  const { rows } = await database.executeSql('select username from users where id = $1', [USER.id]);
  return rows[0]?.username;
}

describe('backups (docs/deploy.md, "Backups and restore")', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'vrclink-backup-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  // The PGlite part in the main run, the PostgreSQL part in the PostgreSQL run (postgres-suite.json).
  it.skipIf(adminUrl)(
    'restores a PGlite DATA_DIR copied while stopped, and a server starts on it',
    async () => {
      const dataDir = join(work, 'data');
      // From the migrated template, as the server's start opens it (its own thread): no initdb, which took most
      // of the 120 s this test had on a loaded machine.
      const database = await openDatabase({ dataDir, ownThread: true, loadDataDir: pgliteTemplate() });
      await upsertUser(database.db, USER);
      await database.close();
      const file = join(work, 'data.tar.gz');
      expect(script('backup', file, { DATA_DIR: dataDir })).toContain('Backed up');
      const restored = join(work, 'restored');
      expect(script('restore', file, { DATA_DIR: restored })).toContain('Restored');
      expect(() => script('restore', file, { DATA_DIR: restored })).toThrow();
      const proc = await startServerProcess({
        DATABASE_URL: '',
        DATA_DIR: restored,
        PROCESS_ROLES: 'api',
        SIMULATOR_PORT: String(await freePort()),
      });
      try {
        await waitUntilReady(proc);
      } finally {
        await proc.stop();
      }
      expect(existsSync(join(restored, 'pglite'))).toBe(true);
      const reopened = await openDatabase({ dataDir: restored });
      try {
        expect(await keptUser(reopened)).toBe(USER.username);
      } finally {
        await reopened.close();
      }
    },
    // Three database opens, two scripts and a server start (tsx compiles it: 36 s seen with the CPU loaded).
    240_000,
  );

  it.skipIf(!adminUrl)(
    'restores a PostgreSQL dump into a new database, and a server starts on it',
    async () => {
      const source = await createScratchDatabase(adminUrl as string);
      const target = await createScratchDatabase(adminUrl as string);
      const sim = await startOwnSimulator(0, LAX_SIMULATOR);
      try {
        const database = await openDatabase({ url: source.url });
        await upsertUser(database.db, USER);
        await database.close();
        const file = join(work, 'vrclink.dump');
        script('backup', file, { DATABASE_URL: source.url });
        script('restore', file, { DATABASE_URL: target.url });
        const proc = await startServerProcess({
          DATABASE_URL: target.url,
          PROCESS_ROLES: 'api',
          SIMULATOR_URL: sim.sim.url,
          SECRET_KEY: 'backup-restore-secret-key-0000000000',
        });
        try {
          await waitUntilReady(proc);
        } finally {
          await proc.stop();
        }
        const restored = await openDatabase({ url: target.url });
        try {
          expect(await keptUser(restored)).toBe(USER.username);
        } finally {
          await restored.close();
        }
      } finally {
        await sim.sim.close();
        await source.drop();
        await target.drop();
      }
    },
    120_000,
  );
});
