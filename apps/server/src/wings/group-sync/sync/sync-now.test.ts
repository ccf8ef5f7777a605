import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { withOwnerApp } from '../../../../test/factories.js';
import type { PgBossJobQueue } from '../../../jobs/pg-boss-queue.js';

const url = `/api/guilds/${seedGuildIds.hangout.id}/sync`;

describe('POST /api/guilds/:guildId/sync says when the server syncs', () => {
  let t: TestApp, owner: { session: string };
  withOwnerApp({ ...laxSimulator.forVrchatTestPacing, jobs: true }, (scene) => {
    ({ t, owner } = scene);
  });

  it('answers when the queued sync starts, and that one is running when a worker holds one', async () => {
    const first = await t.inject({ method: 'POST', url, session: owner.session });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ queued: true, running: false });
    expect(Math.abs(Date.parse(body.startsAt) - Date.now())).toBeLessThan(10_000);

    // A worker takes it (a sync running, or one whose worker died until its lease runs out).
    const [taken] = await (t.ctx.jobs as PgBossJobQueue).boss.fetch('sync.guild');
    expect(taken).toBeDefined();
    const during = (await t.inject({ method: 'POST', url, session: owner.session })).json();
    expect(during).toMatchObject({ queued: true, running: true });
    expect(during.startsAt).toEqual(expect.any(String));
    // Asked again: it joins the waiting one, and still says when.
    const again = (await t.inject({ method: 'POST', url, session: owner.session })).json();
    expect(again).toMatchObject({ queued: false, running: true, startsAt: expect.any(String) });
  });
});
