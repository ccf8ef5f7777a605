import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../test/app.js';
import { rows, updateVrchatUser, vrchatLink, vrchatUser } from '../../../test/factories.js';
import { linkRefreshBatchSize } from './link-refresh-batch.js';
import { linksRefreshHandler } from './links-refresh.js';

describe('linkRefreshBatchSize', () => {
  it('takes enough links per run that every link comes round within a day', () => {
    // 96 runs a day at 15 minutes.
    expect(linkRefreshBatchSize(0, 900)).toBe(1);
    expect(linkRefreshBatchSize(96, 900)).toBe(1);
    expect(linkRefreshBatchSize(97, 900)).toBe(2);
    expect(linkRefreshBatchSize(10_000, 900)).toBe(105);
    expect(linkRefreshBatchSize(10_000_000, 900)).toBe(500);
    expect(linkRefreshBatchSize(10, 2 * 86_400)).toBe(10);
  });
});

describe('links.refresh job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
  });
  afterAll(() => t.close());

  const age = (discordUserId: string, hours: number) =>
    t.ctx.database.executeSql(
      `update vrchat_links set refreshed_at = now() - make_interval(hours => $2) where discord_user_id = $1`,
      [discordUserId, hours],
    );

  it('re-reads the stalest link, as the job, and leaves recently refreshed ones alone', async () => {
    const stale = await vrchatUser(t, { displayName: 'Old Name' });
    const fresh = await vrchatUser(t, { displayName: 'Fresh Name' });
    await vrchatLink(t, {
      discordUserId: '1300000000000000701',
      vrcUserId: stale.id,
      vrchatName: 'Old Name',
    });
    await vrchatLink(t, {
      discordUserId: '1300000000000000702',
      vrcUserId: fresh.id,
      vrchatName: 'Fresh Name',
    });
    await age('1300000000000000701', 30);
    await age('1300000000000000702', 2);
    await updateVrchatUser(t, stale.id, {
      displayName: 'New Name',
      ageVerificationStatus: '18+',
      ageVerified: true,
    });
    await updateVrchatUser(t, fresh.id, { displayName: 'Renamed Too' });

    await linksRefreshHandler.run(t.ctx, {});

    const links = await rows(t, 'vrchat_links', "discord_user_id like '13000000000000007%'");
    expect(links.map((l) => [l.discord_user_id, l.vrchat_name, l.age_verification])).toEqual([
      ['1300000000000000701', 'New Name', 'Plus18'],
      ['1300000000000000702', 'Fresh Name', 'Unverified'],
    ]);
    const audit = await rows(t, 'audit_log', "action = 'link.refreshed'");
    expect(audit.map((a) => [a.actor_id, a.target_id])).toEqual([['job:links.refresh', stale.id]]);
    const events = await rows(t, 'link_events', "kind = 'refreshed'");
    expect(events).toHaveLength(1);
  });

  it('only moves the refresh time when nothing changed, so a second run is harmless', async () => {
    await age('1300000000000000701', 30);
    await linksRefreshHandler.run(t.ctx, {});
    await linksRefreshHandler.run(t.ctx, {});
    expect(await rows(t, 'audit_log', "action = 'link.refreshed'")).toHaveLength(1);
    const [link] = await rows(t, 'vrchat_links', "discord_user_id = '1300000000000000701'");
    expect(Date.now() - new Date(link.refreshed_at as string).getTime()).toBeLessThan(60_000);
  });
});
