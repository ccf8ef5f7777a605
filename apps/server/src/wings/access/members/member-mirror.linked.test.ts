import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import {
  appWithHangoutOwner,
  vrchatLink,
  vrchatUser,
  withoutMembersIntent,
} from '../../../../test/factories.js';
import { waitFor } from '../../../platforms/testing.js';
import { mirrorDeps } from './member-mirror.events.js';
import { refreshLinkedUser } from './member-mirror.fill.js';
import { fillGuilds, reconcileAllGuildMembers } from './member-mirror.reconcile.js';
import { currentMembers, getSync, knownLinkedUserIds, linkedUserIds } from './member-mirror.store.js';

const { hangout } = seedGuildIds;
const linkedUser = seedUserIds.humans[3];

/**
 * A link stored, then what linking through the product does next (memberLinked): the new link is looked up
 * in every server, so the reconciliations know where to find it.
 */
async function linkAsTheProductDoes(t: TestApp, link: Parameters<typeof vrchatLink>[1]): Promise<void> {
  await vrchatLink(t, link);
  await refreshLinkedUser(mirrorDeps(t.ctx), await t.ctx.discord.botGuildIds(), link.discordUserId);
}

describe('member mirror without the Server Members intent (linked members only)', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forVrchatTestPacing,
      beforeStart: withoutMembersIntent,
    }));
    await waitFor(async () => (await getSync(t.ctx.db, hangout.id))?.filledAt, 15_000);
    await linkAsTheProductDoes(t, { discordUserId: linkedUser, vrchatName: 'Linked Only', isVerified: true });
    await reconcileAllGuildMembers(t.ctx);
  });
  afterAll(() => t?.close());

  it('identifies without the intent (no 4014) and keeps linked members only', async () => {
    expect(t.platforms?.gatewayState()).toBe('ready');
    expect(t.platforms?.bot.client.options.intents.has(GatewayIntentBits.GuildMembers)).toBe(false);
    expect(await getSync(t.ctx.db, hangout.id)).toMatchObject({ mode: 'linked' });
    const ids = (await currentMembers(t.ctx.db, hangout.id)).map((m) => m.userId);
    expect(ids).toContain(linkedUser);
  });

  it('says so in the Members tab and the Discord tab, with Discord’s own member count', async () => {
    const search = await t.inject({
      method: 'GET',
      url: `/api/members/${hangout.id}`,
      session: owner.session,
    });
    expect(search.statusCode).toBe(200);
    const body = search.json();
    expect(body.linkedOnly).toBe(true);
    expect(body.results.map((r: { id: string }) => r.id)).toContain(linkedUser);
    expect(body.results.every((r: { vrcId: string | null }) => r.vrcId !== null)).toBe(true);

    const tab = (
      await t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}`, session: owner.session })
    ).json();
    const discord = await t.control('GET', `/discord/guilds/${hangout.id}`);
    expect(tab).toMatchObject({ membersIntent: false, members: discord.body.members.length });
    expect(tab.linkedMembers).toBeGreaterThanOrEqual(1);
  });

  it('still answers any member (one REST call, stored) for permissions and member details', async () => {
    const other = seedUserIds.humans[6];
    const res = await t.inject({
      method: 'GET',
      url: `/api/members/${hangout.id}/${other}`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(200);
    const gone = await t.inject({
      method: 'GET',
      url: `/api/members/${hangout.id}/${seedUserIds.unaffiliated[0]}`,
      session: owner.session,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('keeps linked members current: a newly linked member appears, changes are seen by the reconciliation', async () => {
    const newcomer = seedUserIds.humans[7];
    await linkAsTheProductDoes(t, { discordUserId: newcomer, vrchatName: 'Newly Linked' });
    await reconcileAllGuildMembers(t.ctx);
    const ids = async () => (await currentMembers(t.ctx.db, hangout.id)).map((m) => m.userId);
    expect(await ids()).toContain(newcomer);

    const roleId = hangout.roles.Newcomer;
    await t.control('PUT', `/discord/guilds/${hangout.id}/members/${newcomer}/roles/${roleId}`);
    await t.control('DELETE', `/discord/guilds/${hangout.id}/members/${linkedUser}`);
    await reconcileAllGuildMembers(t.ctx);
    const rows = await currentMembers(t.ctx.db, hangout.id);
    expect(rows.find((m) => m.userId === newcomer)?.roleIds).toContain(roleId);
    expect(rows.map((m) => m.userId)).not.toContain(linkedUser);
  });

  it('asks Discord, per server, only for the linked members known to be in it (not every link)', async () => {
    // Links of people in none of these servers (they linked for another community of the deployment).
    for (const [i, id] of seedUserIds.unaffiliated.slice(0, 5).entries())
      await vrchatLink(t, { discordUserId: id, vrchatName: `Elsewhere ${i}` });
    const guildIds = await t.ctx.discord.botGuildIds();
    const known = new Map<string, string[]>();
    for (const guildId of guildIds) known.set(guildId, (await knownLinkedUserIds(t.ctx.db, guildId)).sort());
    expect(known.get(hangout.id)).toContain(seedUserIds.humans[7]);
    const links = (await linkedUserIds(t.ctx.db)).length;
    const expected = [...known.values()].reduce((sum, ids) => sum + ids.length, 0);
    expect(expected).toBeLessThan(links * guildIds.length);

    await t.control('DELETE', '/discord/counters');
    await fillGuilds(t.ctx, guildIds);
    const counters = (await t.control('GET', '/discord/counters')).body as {
      byRoute: Record<string, { requests: number }>;
    };
    const memberReads = Object.entries(counters.byRoute)
      .filter(([route]) => /^GET \S*\/guilds\/\{\w+\}\/members\/\{\w+\}$/.test(route))
      .reduce((sum, [, c]) => sum + c.requests, 0);
    expect(memberReads).toBe(expected);
    for (const guildId of guildIds)
      expect((await currentMembers(t.ctx.db, guildId)).map((m) => m.userId).sort()).toEqual(
        known.get(guildId),
      );
  });

  it('fetches a member who links through the product at once', async () => {
    const user = await signIn(t, { id: seedUserIds.humans[8] });
    const target = await vrchatUser(t);
    const res = await t.inject({
      method: 'POST',
      url: `/api/users/link?vrcId=${target.id}`,
      session: user.session,
    });
    expect(res.statusCode).toBe(200);
    await waitFor(async () => (await currentMembers(t.ctx.db, hangout.id)).some((m) => m.userId === user.id));
  });
});
