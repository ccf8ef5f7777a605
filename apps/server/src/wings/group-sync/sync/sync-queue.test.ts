import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { withOwnerApp } from '../../../../test/factories.js';
import type { PgBossJobQueue } from '../../../jobs/pg-boss-queue.js';
import { syncGuildJob } from '../../../kernel/job-catalog.js';

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
  const queueSync = (guildId: string) =>
    t.ctx.jobs.send(syncGuildJob, { guildId, reason: 'schedule' }, { singletonKey: guildId });

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
});
