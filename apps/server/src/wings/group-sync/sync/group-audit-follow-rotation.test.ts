import { vrchatSeed } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { guildGroup } from '../../../../test/factories.js';
import { followGroupAuditLogs } from './group-audit-follow.js';

const GROUPS = 6;
const guildIds = Array.from({ length: GROUPS }, (_, i) => `90000000000000000${i}`);

describe('groups.follow passes cut short by their time limit', () => {
  let t: TestApp;
  /** The servers whose group each pass read (in order). */
  let polled: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forVrchatTestPacing);
    // Six servers linked to the seeded groups (any two may share one group: each server follows its own link).
    const seeded = [vrchatSeed.groupIds.hangout, vrchatSeed.groupIds.danceClub];
    for (const [i, guildId] of guildIds.entries())
      await guildGroup(t, { guildId, groupId: seeded[i % 2], name: `Group ${i}`, enabled: true });
    // The first pass only starts the cursors (no read); every later pass reads each group it reaches.
    await followGroupAuditLogs(t.ctx);
  });
  afterAll(() => t?.close());

  /** One pass whose time is up as soon as it has read one group (a pass that can cover only a part). */
  const shortPass = async () => {
    const time = new AbortController();
    // The follow reads through the account serving the groups (the only one here).
    const vrchat = t.ctx.vrchat.forAccount(t.ctx.vrchat.accounts()[0] as string);
    const read = vrchat.getGroupAuditLogs;
    const before = await followedAt();
    vrchat.getGroupAuditLogs = async (...args) => {
      time.abort(new Error('time is up'));
      return read.apply(vrchat, args);
    };
    try {
      await followGroupAuditLogs(t.ctx, time.signal);
    } finally {
      vrchat.getGroupAuditLogs = read;
    }
    const after = await followedAt();
    const moved = guildIds.filter((id) => after.get(id) !== before.get(id));
    polled.push(...moved);
    return moved;
  };
  const followedAt = async () => {
    const { rows } = await t.ctx.database.executeSql(
      'select guild_id, followed_at from guild_sync_state where guild_id = any($1)',
      [guildIds],
    );
    return new Map(rows.map((r) => [r.guild_id as string, new Date(r.followed_at as string).getTime()]));
  };

  it('stops when its time is up and the next pass resumes with the groups not reached, so every group is polled in turn', async () => {
    polled = [];
    for (let pass = 0; pass < GROUPS; pass++) expect(await shortPass()).toHaveLength(1);
    // Six passes of one group each: every group once, none twice (round-robin, not the same first group).
    expect(new Set(polled).size).toBe(GROUPS);
    // And round again in the same order.
    const firstRound = [...polled];
    polled = [];
    for (let pass = 0; pass < GROUPS; pass++) await shortPass();
    expect(polled).toEqual(firstRound);
  });
});
