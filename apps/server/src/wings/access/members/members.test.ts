import { seedGuildIds, seedUserIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, signInMember, vrchatLink } from '../../../../test/factories.js';
import { purgeOldHistory } from '../../../jobs/history-retention.js';

const { hangout } = seedGuildIds;
const base = `/api/members/${hangout.id}`;

describe('member search (against the simulators)', () => {
  let t: TestApp, owner: { id: string; session: string };
  let linked: { id: string; session: string; username: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forVrchatTestPacing));
    linked = await signInMember(t, hangout.id, {
      username: 'zz_linked_member',
      roles: [hangout.roles.Verified],
    });
    await vrchatLink(t, {
      discordUserId: linked.id,
      vrcUserId: 'usr_0000feed',
      vrchatName: 'Feedback Loop',
      plus18: true,
    });
  });
  afterAll(() => t?.close());

  const search = (query: string, user = owner) =>
    t.inject({ method: 'GET', url: `${base}?${query}`, session: user.session });

  it('pages through every member 25 at a time, ordered by username', async () => {
    const first = (await search('page=1')).json();
    expect(first.results).toHaveLength(25);
    expect(first.totalCount).toBeGreaterThan(40);
    expect(first.totalPages).toBe(Math.ceil(first.totalCount / 25));
    const names = first.results.map((r: { username: string }) => r.username);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const last = (await search(`page=${first.totalPages}`)).json();
    expect(last.results.length).toBe(first.totalCount - 25 * (first.totalPages - 1));
  });

  it('finds a member by Discord name, Discord id, VRChat name and VRChat id, with their link state', async () => {
    const expected = {
      id: linked.id,
      username: 'zz_linked_member',
      vrcName: 'Feedback Loop',
      vrcId: 'usr_0000feed',
      isVerified: true,
      ageVerified: 'Plus18',
      linkCount: 1,
    };
    for (const query of [
      'searchBy=DiscordName&search=zz_linked',
      `searchBy=DiscordId&search=${linked.id}`,
      'searchBy=VrcName&search=feedback',
      'searchBy=VrcId&search=usr_0000feed',
    ]) {
      const res = (await search(query)).json();
      expect(res.totalCount, query).toBe(1);
      expect(res.results[0]).toMatchObject(expected);
      expect(Date.parse(res.results[0].linkLastChanged)).toBeGreaterThan(0);
    }
  });

  it('filters to linked, unlinked and linked-but-unverified members, counting only those', async () => {
    const all = (await search('page=1')).json();
    const linkedOnes = (await search('filter=linked')).json();
    expect(linkedOnes.results.map((r: { id: string }) => r.id)).toContain(linked.id);
    expect(linkedOnes.results.every((r: { vrcId: string | null }) => r.vrcId !== null)).toBe(true);
    const unlinked = (await search('filter=unlinked')).json();
    expect(unlinked.results.every((r: { vrcId: string | null }) => r.vrcId === null)).toBe(true);
    expect(linkedOnes.totalCount + unlinked.totalCount).toBe(all.totalCount);
    const unverified = (await search('filter=unverified&searchBy=DiscordName&search=zz_linked')).json();
    expect(unverified.totalCount).toBe(0);
    expect((await search('filter=linked&searchBy=DiscordName&search=zz_linked')).json().totalCount).toBe(1);
    expect((await search('filter=everyone')).statusCode).toBe(400);
  });

  it("never shows an unproven link as 18+ (the account may be a stranger's)", async () => {
    const claimant = await signInMember(t, hangout.id, { username: 'zz_claims_adult' });
    await vrchatLink(t, {
      discordUserId: claimant.id,
      vrcUserId: 'usr_0000beef',
      vrchatName: 'Someone Adult',
      plus18: true,
      isVerified: false,
    });
    const res = (await search('searchBy=DiscordName&search=zz_claims_adult')).json();
    expect(res.results[0]).toMatchObject({ isVerified: false, ageVerified: 'Unverified' });
  });

  it('treats search text literally (no SQL wildcards) and answers an empty page for no match', async () => {
    const res = (await search('searchBy=VrcName&search=%25')).json();
    expect(res).toEqual({ results: [], totalCount: 0, totalPages: 1, linkedOnly: false });
  });

  it('shows a member’s Discord roles', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${base}/${linked.id}?includeRoles=true`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: linked.id,
      discordRoles: [expect.objectContaining({ id: hangout.roles.Verified, name: 'Verified' })],
    });
    const gone = await t.inject({
      method: 'GET',
      url: `${base}/${seedUserIds.unaffiliated[0]}`,
      session: owner.session,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('needs ViewGuild', async () => {
    const member = await signInMember(t, hangout.id);
    const res = await search('page=1', member);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You need the ViewGuild permission in this server.');
    expect(
      (await t.inject({ method: 'GET', url: `${base}/${linked.id}`, session: member.session })).statusCode,
    ).toBe(403);
    await t.inject({
      method: 'POST',
      url: `/api/guilds/permissions/${hangout.id}/${member.id}`,
      session: owner.session,
      payload: { permissions: ['ViewGuild'] },
    });
    expect((await search('page=1', member)).statusCode).toBe(200);
  });

  it('keeps Link Count and Last Link Change once retention deleted the old link events', async () => {
    const member = await signInMember(t, hangout.id, { username: 'zz_relinker' });
    const now = Date.now();
    const age = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const event = (kind: string, days: number, processed = true) =>
      t.ctx.database.executeSql(
        'insert into link_events (discord_user_id, vrc_user_id, kind, created_at, processed_at) values ($1, $2, $3, $4, $5)',
        [member.id, 'usr_0000beef', kind, age(days), processed ? age(days) : null],
      );
    await event('linked', 400);
    await event('unlinked', 200);
    await event('refreshed', 150);
    await event('linked', 120, false);
    await event('unlinked', 100);
    const shown = async () => {
      const [row] = (await search('searchBy=DiscordName&search=zz_relinker')).json().results;
      return { linkCount: row.linkCount, linkLastChanged: row.linkLastChanged };
    };
    const before = await shown();
    expect(before).toEqual({ linkCount: 4, linkLastChanged: age(100) });

    await purgeOldHistory(t.ctx.db, { auditLogDays: 365, linkEventsDays: 90 });

    // The processed events past 90 days are gone, the one the role work has not processed stays.
    const kept = await t.ctx.database.executeSql(
      'select kind from link_events where discord_user_id = $1 order by created_at',
      [member.id],
    );
    expect(kept.rows.map((r) => r.kind)).toEqual(['linked']);
    expect(await shown()).toEqual(before);
    // A second run finds nothing more to fold in.
    await purgeOldHistory(t.ctx.db, { auditLogDays: 365, linkEventsDays: 90 });
    expect(await shown()).toEqual(before);
  });

  it('answers 400 for an unknown search field or page', async () => {
    expect((await search('searchBy=Email')).statusCode).toBe(400);
    expect((await search('page=0')).statusCode).toBe(400);
  });
});
