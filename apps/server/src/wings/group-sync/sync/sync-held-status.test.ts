import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, discordRole, guildGroup, signInMember } from '../../../../test/factories.js';
import { guildSettings } from '../../../db/schema/index.js';
import { runGuildSync } from './sync.service.js';
import { groupId, hangout } from './testing.js';

const viewKeys = ['discordUserId', 'kind', 'reason', 'roleName', 'targetName', 'vrcUserId'];

// Production's compiled serializer (not zod's, which the other tests use): it answered 500 "The value of
// '#/properties/held' does not match schema definition" for the stored entries' `key` and `approved`.
describe('the sync status with held removals, as production serializes it', () => {
  let t: TestApp, owner: { session: string };
  const status = () =>
    t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}/sync`, session: owner.session });

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forVrchatTestPacing,
      jobs: true,
      env: { NODE_ENV: 'production' },
    }));
    await guildGroup(t, { guildId: hangout.id, groupId, name: 'VRC Hangout Official' });
  });
  afterAll(() => t?.close());

  it('answers the Discord role removals the breaker held (the Linked Users Role changed)', async () => {
    const role = await discordRole(t, hangout.id, 'Verified');
    for (let i = 0; i < 7; i++) await signInMember(t, hangout.id, { roles: [role] });
    await t.ctx.db.insert(guildSettings).values({ guildId: hangout.id, linkedRoleId: role });
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ held: 7 });

    const res = await status();
    expect(res.statusCode).toBe(200);
    const { held } = res.json();
    expect(held.count).toBe(7);
    for (const a of held.actions) {
      expect(Object.keys(a).sort()).toEqual(viewKeys);
      expect(a).toMatchObject({ kind: 'removeDiscordRole', roleName: 'Verified', vrcUserId: null });
    }
  });

  it("pages through every held removal, each in the view's fields only", async () => {
    const page = await t.inject({
      method: 'GET',
      url: `/api/guilds/${hangout.id}/sync/held?page=2&pageSize=5`,
      session: owner.session,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 7, page: 2, pageSize: 5 });
    expect(page.json().actions).toHaveLength(2);
    for (const a of page.json().actions) expect(Object.keys(a).sort()).toEqual(viewKeys);
  });
});
