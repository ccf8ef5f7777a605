import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../test/app.js';
import { demoSeed, seedDemoData } from './demo-seed.js';

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoData(t.ctx.db);
  });
  afterAll(() => t.close());

  it('can run at every start without duplicating or overwriting anything', async () => {
    await t.ctx.database.executeSql(`update guest_roles set count = 7 where count = 3`);
    await seedDemoData(t.ctx.db);
    const { rows } = await t.ctx.database.executeSql('select count from guest_roles order by count');
    expect(rows.map((r) => Number(r.count))).toEqual([1, 7]);
    const links = await t.ctx.database.executeSql('select discord_user_id from vrchat_links');
    expect(links.rows).toHaveLength(1);
  });

  it('makes the seeded link a conflict for everybody else', async () => {
    const user = await signIn(t);
    const res = await t.inject({
      method: 'GET',
      url: `/api/users/check?vrcId=${demoSeed.linkedVrcUserId}`,
      session: user.session,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('Conflict');
  });
});
