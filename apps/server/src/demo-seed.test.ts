import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../test/app.js';
import { signInHangoutOwner } from '../test/factories.js';
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
});

describe('demo seed against the simulators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    await seedDemoData(t.ctx.db);
  });
  afterAll(() => t.close());

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

  it('gives the Hangout a world fed from its Discord roles and its VRChat group', async () => {
    const owner = await signInHangoutOwner(t);
    const res = await t.inject({
      method: 'GET',
      url: `/api/guilds/${demoSeed.hangout.id}/worlds`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(200);
    const [world] = res.json().worlds;
    expect(world).toMatchObject({ name: 'Hangout Lobby', locked: true, includeGroupData: true });
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: `/data/v2/${world.id}` })).body);
    // Bastian is linked (verified) to akira.night, a Discord moderator; he moderates the VRChat group too.
    expect(doc.GuildUsers.Moderator).toEqual(['Bastian']);
    expect(doc.GroupUsers).toMatchObject({ Owner: ['Aurora Skye'], Moderator: ['Bastian'] });
    expect(Object.keys(doc.GuildUsers)).toEqual(['Admin', 'Moderator', 'Verified', 'Event Host', 'Guest']);
    expect(doc.CustomData).toBe('Welcome to the VRChat Hangout!');
  });
});
