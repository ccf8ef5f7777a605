import { seedGuildIds, vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { discordMember, discordRole, signInHangoutOwner, vrchatLink } from '../../../../test/factories.js';
import { createContext } from '../../../kernel/context.js';
import { memberMirrorDiscord } from '../../access/index.js';
import { runGuildSync } from './sync.service.js';
import { hangoutGroupForMembers } from './testing.js';

const { hangout } = seedGuildIds;

/**
 * Previews share the group's VRChat reads (one in flight, or one younger than 15 s): at VRChat's pace a
 * read costs several seconds, and a manager's previews would otherwise queue ahead of the syncs. A sync
 * reads fresh, and a sync that wrote to the group makes the next preview read again.
 */
describe('group reads shared by previews', () => {
  let t: TestApp;
  let session: string;
  let memberRole: string;
  const memberListings = async () => {
    const res = await t.control('GET', '/vrchat/counters');
    const byRoute = res.body.byRoute as Record<string, { requests: number }>;
    return byRoute['GET /groups/{groupId}/members']?.requests ?? 0;
  };
  const preview = () => t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}/sync/preview`, session });

  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    session = (await signInHangoutOwner(t)).session;
    memberRole = await discordRole(t, hangout.id, 'Group Member');
    const member = await discordMember(t, hangout.id, { roles: [memberRole] });
    await vrchatLink(t, {
      discordUserId: member.id,
      vrcUserId: vrchatSeed.userIds['Carol Casual'],
      vrchatName: 'Carol Casual',
    });
    await hangoutGroupForMembers(t, memberRole);
  });
  afterAll(() => t?.close());

  it('reads the group once for previews asked at the same time and just after', async () => {
    const before = await memberListings();
    const answers = await Promise.all([preview(), preview(), preview()]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json().total)).toEqual([1, 1, 1]);
    expect((await preview()).json().total).toBe(1);
    expect((await memberListings()) - before).toBe(1);
  });

  it('lets a sync read fresh, and reads again for the next preview once the sync wrote to the group', async () => {
    const before = await memberListings();
    expect(await runGuildSync(t.ctx, hangout.id)).toMatchObject({ applied: 1 });
    expect((await memberListings()) - before).toBe(1);
    // Carol is invited now: the preview sees it, so it read the group again.
    expect((await preview()).json().total).toBe(0);
    expect((await memberListings()) - before).toBe(2);
  });

  it('reads again for the next preview once a sync in another process wrote to the group', async () => {
    // Another process (an api process beside a worker): its own context, so its own cache of group reads.
    const parts = { config: t.ctx.config, database: t.ctx.database, log: t.ctx.log, platforms: t.platforms };
    const worker = createContext({ ...parts, discord: memberMirrorDiscord(parts) });
    const other = await discordMember(t, hangout.id, { roles: [memberRole] });
    await vrchatLink(t, {
      discordUserId: other.id,
      vrcUserId: vrchatSeed.userIds['Yuki Frost'],
      vrchatName: 'Yuki Frost',
    });
    // A preview here sees Yuki to invite (from a read it shares with later previews).
    expect((await preview()).json().total).toBe(1);
    const before = await memberListings();

    expect(await runGuildSync(worker, hangout.id)).toMatchObject({ applied: 1 });
    // The sync ran in the other process: this one's read is older than its writes, so the preview reads again.
    expect((await preview()).json().total).toBe(0);
    expect((await memberListings()) - before).toBe(2);
    // And that read is reused again until the next write.
    expect((await preview()).json().total).toBe(0);
    expect((await memberListings()) - before).toBe(2);
  });
});
