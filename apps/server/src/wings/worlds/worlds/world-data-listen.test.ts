import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, newWorld } from '../../../../test/factories.js';
import { type Database, openDatabase } from '../../../db/client.js';
import { type AppContext, createContext } from '../../../kernel/context.js';
import { waitFor } from '../../../platforms/testing.js';
import { memberMirrorDiscord } from '../../access/index.js';
import { worldDataCacheOf } from './world-data.service.js';
import type { WorldDataCache } from './world-data-cache.js';
import { readWorldAndBody } from './world-data-store.js';
import type { WorldRow } from './worlds.service.js';

const { hangout } = seedGuildIds;
const base = `/api/guilds/${hangout.id}/worlds`;

/**
 * Two processes on one PostgreSQL database: the test app (A) and a second serving cache (B) on connections of
 * its own, as another server process would have. B hears of A's builds, settings changes and deletions on
 * LISTEN world_data, and reads the database only when told, never per request.
 */
describe.skipIf(!process.env.DATABASE_URL)('world data across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let otherDb: Database;
  let other: WorldDataCache;
  let otherCtx: AppContext;

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    otherDb = await openDatabase({ url: t.ctx.database.url as string, onConnectionError: () => {} });
    const parts = { config: t.ctx.config, database: otherDb, log: t.ctx.log, platforms: t.platforms };
    otherCtx = createContext({ ...parts, discord: memberMirrorDiscord(parts) });
    other = worldDataCacheOf(otherCtx);
    await other.start();
  });
  afterAll(async () => {
    await other?.stop();
    await otherDb?.close();
    await t?.close();
  });

  const createWorld = () => newWorld(t, hangout.id, owner);
  const download = (id: string) => t.app.inject({ method: 'GET', url: `/data/v2/${id}` });

  it('takes the body the other process built, and each rebuild of it, without building itself', async () => {
    const id = await createWorld();
    const built = await download(id);
    const taken = await other.serve(id);
    // The same bytes: B read A's stored body (a build of its own would carry another LastUpdated).
    expect(taken?.etag).toBe(built.headers.etag);
    expect(taken?.text).toBe(built.body);

    // A rebuilds (its worlds.rebuild job): B swaps the body in memory when told.
    await new Promise((r) => setTimeout(r, 5));
    const found = await readWorldAndBody(t.ctx.db, id);
    const rebuilt = await worldDataCacheOf(t.ctx).rebuild(found?.world as WorldRow);
    expect(rebuilt?.etag).not.toBe(built.headers.etag);
    await waitFor(() => other.ready(id)?.etag === rebuilt?.etag);
  });

  it('serves a fresh build after a settings change made through the other process', async () => {
    const id = await createWorld();
    await download(id);
    expect((await other.serve(id))?.text).not.toContain('changed elsewhere');
    const res = await t.inject({
      method: 'POST',
      url: `${base}/${id}`,
      session: owner.session,
      payload: { customData: 'changed elsewhere' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(() => other.ready(id) === undefined);
    expect(JSON.parse((await other.serve(id))?.text ?? '{}').CustomData).toBe('changed elsewhere');
  });

  it('stops serving a world deleted through the other process at once', async () => {
    const id = await createWorld();
    expect(await other.serve(id)).not.toBeNull();
    expect(other.ready(id)).toBeDefined();
    await t.inject({
      method: 'POST',
      url: `${base}/${id}`,
      session: owner.session,
      payload: { locked: false },
    });
    const deleted = await t.inject({ method: 'DELETE', url: `${base}/${id}`, session: owner.session });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await waitFor(() => other.ready(id) === undefined);
    expect(await other.serve(id)).toBeNull();
  });
});
