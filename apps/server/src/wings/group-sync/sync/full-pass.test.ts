import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { syncAllHandler } from '../../../jobs/handlers/sync-all.js';
import { FULL_PASS_INTERVAL_MS, fullPassReason, type LastSyncFacts, nextFullPassSync } from './full-pass.js';
import { runGuildSync } from './sync.service.js';
import { hangout } from './testing.js';

const HOUR = 60 * 60_000;
const now = Date.parse('2026-11-29T12:00:00Z');
const clean = (lastRunAgoMs: number): LastSyncFacts => ({
  lastRunAt: new Date(now - lastRunAgoMs),
  lastAttemptAt: new Date(now - lastRunAgoMs - 5_000),
  failed: 0,
  followFailing: false,
  linkedOnly: false,
});

describe('which servers the scheduled pass syncs', () => {
  it('skips a server whose last clean sync is younger than the interval, and syncs it once it is older', () => {
    expect(fullPassReason(clean(10 * 60_000), now)).toBeNull();
    expect(fullPassReason(clean(FULL_PASS_INTERVAL_MS - 1), now)).toBeNull();
    expect(fullPassReason(clean(FULL_PASS_INTERVAL_MS), now)).toBe('due');
  });

  it('syncs at every pass what no event would report: never synced, unfinished, failed writes, an unfollowed group, no member events', () => {
    expect(fullPassReason({ ...clean(60_000), lastRunAt: null }, now)).toBe('never');
    expect(fullPassReason({ ...clean(HOUR), lastAttemptAt: new Date(now - 60_000) }, now)).toBe('unfinished');
    expect(fullPassReason({ ...clean(60_000), failed: 2 }, now)).toBe('failed');
    expect(fullPassReason({ ...clean(60_000), followFailing: true }, now)).toBe('unfollowed');
    expect(fullPassReason({ ...clean(60_000), linkedOnly: true }, now)).toBe('linkedOnly');
  });

  it('never leaves a server unsynced longer than the interval plus one pass (any facts, any time)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 48 * HOUR }),
        fc.integer({ min: 0, max: 15 * 60_000 }),
        fc.boolean(),
        fc.boolean(),
        (ago, passIn, followFailing, linkedOnly) => {
          const facts = { ...clean(ago), followFailing, linkedOnly };
          const next = nextFullPassSync(facts, new Date(now + passIn)).getTime();
          expect(next).toBeGreaterThanOrEqual(now + passIn);
          expect(next).toBeLessThanOrEqual(Math.max(now + passIn, now - ago + FULL_PASS_INTERVAL_MS));
          // The pass the status names does sync it.
          expect(fullPassReason(facts, next)).not.toBeNull();
        },
      ),
    );
  });
});

describe('the scheduled pass (sync.all) against the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
  });
  afterAll(() => t?.close());

  const queued = async () =>
    (
      await t.ctx.database.executeSql(
        "select data->>'guildId' as guild_id from pgboss.job where name = 'sync.guild' and state = 'created'",
      )
    ).rows.map((r) => String(r.guild_id));
  const pass = async () => {
    await t.ctx.database.executeSql("delete from pgboss.job where name = 'sync.guild'");
    await syncAllHandler.run(t.ctx, {});
    return queued();
  };
  const setState = (assignments: string) =>
    t.ctx.database.executeSql(`update guild_sync_state set ${assignments} where guild_id = $1`, [hangout.id]);

  it('queues every server never synced, then skips one synced cleanly since, until something makes it due', async () => {
    const all = await t.ctx.discord.botGuildIds();
    expect((await pass()).sort()).toEqual([...all].sort());

    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ failed: 0 });
    const after = await pass();
    expect(after).not.toContain(hangout.id);
    expect(after).toHaveLength(all.length - 1);

    await setState(`last_run_at = now() - interval '7 hours', last_attempt_at = now() - interval '7 hours'`);
    expect(await pass()).toContain(hangout.id);

    await setState(`last_run_at = now() - interval '1 minute', last_attempt_at = now()`);
    expect(await pass()).toContain(hangout.id);

    await setState(`last_attempt_at = last_run_at, last_result = jsonb_set(last_result, '{failed}', '1')`);
    expect(await pass()).toContain(hangout.id);

    await setState(`last_result = jsonb_set(last_result, '{failed}', '0'), follow_failures = 2`);
    expect(await pass()).toContain(hangout.id);

    await setState('follow_failures = 0');
    expect(await pass()).not.toContain(hangout.id);
  });
});
