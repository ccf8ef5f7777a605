import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { withOwnerApp } from '../../../../test/factories.js';
import { fetchNextJobSql } from '../../../jobs/boss-sql.js';
import type { PgBossJobQueue } from '../../../jobs/pg-boss-queue.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';
import { CHANGE_PRIORITY, requestGuildSync, syncPriority } from '../../../kernel/sync-trigger.js';
import { syncQueuePlace } from './sync-queue.js';

const url = `/api/guilds/${seedGuildIds.hangout.id}/sync`;

/**
 * Sync now and the status say where the server's sync stands among every server's waiting syncs, with a start
 * estimate from the length of recent syncs (not "starts now" behind a queue of other servers).
 */
describe('the sync queue estimate', () => {
  let t: TestApp, owner: { session: string };
  withOwnerApp({ ...laxSimulator.forVrchatTestPacing, jobs: true }, (scene) => {
    ({ t, owner } = scene);
  });
  const syncQueuePlaceOf = (guildId: string) => syncQueuePlace(t.ctx, guildId);
  const queueSync = (guildId: string) =>
    // Small servers never synced, as the hangout, each asked for by a change (as Sync now is): the same
    // priority, so the older ones go first.
    t.ctx.jobs.send(
      syncGuildJob,
      { guildId, reason: 'member' },
      { singletonKey: guildId, priority: syncPriority(null) + CHANGE_PRIORITY },
    );

  it('counts the servers ahead and estimates the start from recent syncs, in Sync now and in the status', async () => {
    // Three syncs finished recently, 30 s each.
    for (const id of ['900000000000000001', '900000000000000002', '900000000000000003']) await queueSync(id);
    await t.ctx.database.executeSql(
      `update pgboss.job set state = 'completed', started_on = now() - interval '40 seconds',
         completed_on = now() - interval '10 seconds' where name = $1`,
      [syncGuildJob.name],
    );
    // 21 other servers' syncs wait ahead.
    for (let i = 0; i < 21; i++) await queueSync(`91000000000000${String(i).padStart(4, '0')}`);

    const now = (await t.inject({ method: 'POST', url, session: owner.session })).json();
    expect(now).toMatchObject({
      queued: true,
      queue: { ahead: 21, running: 0, estimatedSeconds: 630, secondsPerSync: 30 },
    });
    const status = (await t.inject({ method: 'GET', url, session: owner.session })).json();
    expect(status.activity).toMatchObject({ state: 'queued' });
    expect(status.queue).toMatchObject({ ahead: 21, running: 0, estimatedSeconds: 630 });

    // A worker takes the oldest: one fewer ahead, and the one running counts half.
    const [taken] = await (t.ctx.jobs as PgBossJobQueue).boss.fetch('sync.guild');
    expect(taken).toBeDefined();
    const later = (await t.inject({ method: 'GET', url, session: owner.session })).json();
    expect(later.queue).toMatchObject({ ahead: 20, running: 1, estimatedSeconds: 615 });
  });

  it('has no queue place when no sync of the server waits', async () => {
    await t.ctx.database.executeSql(`delete from pgboss.job where name = $1`, [syncGuildJob.name]);
    const status = (await t.inject({ method: 'GET', url, session: owner.session })).json();
    expect(status.queue).toBeNull();
  });

  it('takes a small community before a big server queued earlier, but a big one that waited long first', async () => {
    const exec = t.ctx.database.executeSql;
    await exec('delete from pgboss.job where name = $1', [syncGuildJob.name]);
    const [big, small, later] = ['920000000000000001', '920000000000000002', '920000000000000003'];
    const lastSync = (guildId: string, durationMs: number) =>
      exec(
        `insert into guild_sync_state (guild_id, last_result) values ($1, $2::jsonb)
         on conflict (guild_id) do update set last_result = excluded.last_result`,
        [guildId, JSON.stringify({ applied: 0, durationMs })],
      );
    await lastSync(big, 10 * 60_000);
    await lastSync(small, 4_000);
    await lastSync(later, 4_000);
    const due = () =>
      exec(`update pgboss.job set start_after = now() - interval '1 second' where name = $1`, [
        syncGuildJob.name,
      ]);
    const next = async () => {
      const { rows } = await exec(fetchNextJobSql, [syncGuildJob.name, 'test-worker', null]);
      return (rows[0]?.data as { guildId: string } | undefined)?.guildId;
    };

    await requestGuildSync(t.ctx, big, 'schedule');
    await requestGuildSync(t.ctx, small, 'member');
    await due();
    expect(await syncQueuePlaceOf(small)).toMatchObject({ ahead: 0 });
    expect(await next()).toBe(small);

    // The big server's sync has waited 31 minutes: more than the small ones' head start, so it goes first.
    await exec(`update pgboss.job set created_on = now() - interval '31 minutes' where singleton_key = $1`, [
      big,
    ]);
    await requestGuildSync(t.ctx, later, 'schedule');
    await due();
    expect(await next()).toBe(big);
    expect(await next()).toBe(later);
  });

  it('takes a change before the scheduled pass, and a change lifts its server’s waiting scheduled sync', async () => {
    const exec = t.ctx.database.executeSql;
    await exec('delete from pgboss.job where name = $1', [syncGuildJob.name]);
    const pass = ['930000000000000001', '930000000000000002', '930000000000000003'];
    const [changed, lifted] = ['930000000000000004', pass[2]!];
    // The scheduled pass queued first (small servers, as the changed one), then a change elsewhere.
    for (const id of pass) await requestGuildSync(t.ctx, id, 'schedule');
    await exec(`update pgboss.job set created_on = now() - interval '5 minutes' where name = $1`, [
      syncGuildJob.name,
    ]);
    await requestGuildSync(t.ctx, changed, 'roles');
    // A change on a server whose scheduled sync waits joins it and lifts it.
    await requestGuildSync(t.ctx, lifted, 'member');
    await exec(`update pgboss.job set start_after = now() - interval '1 second' where name = $1`, [
      syncGuildJob.name,
    ]);
    expect(await syncQueuePlaceOf(changed)).toMatchObject({ ahead: 1 });
    const { rows } = await exec(
      `select data->>'guildId' as id from pgboss.job where name = $1 and state = 'created'`,
      [syncGuildJob.name],
    );
    expect(rows).toHaveLength(4);
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { rows: taken } = await exec(fetchNextJobSql, [syncGuildJob.name, 'test-worker', null]);
      order.push(String((taken[0]?.data as { guildId?: string } | undefined)?.guildId));
    }
    // The lifted one waited longer than the other change; the rest of the pass after both (same age: any order).
    expect(order.slice(0, 2)).toEqual([lifted, changed]);
    expect(order.slice(2).sort()).toEqual([pass[0], pass[1]]);
  });

  it('ranks servers by their last sync’s length, unknown ones as small', () => {
    expect([null, 4_000, 30_000, 120_000, 600_000].map(syncPriority)).toEqual([30, 30, 20, 10, 0]);
  });
});
