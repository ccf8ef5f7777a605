import { demo, vrchatAccounts } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { guildGroup } from '../../../../test/factories.js';
import { followGroupAuditLogs, followSpacingMs } from './group-audit-follow.js';

const bots = [vrchatAccounts.bot, vrchatAccounts.bot2];
const AUDIT = 'GET /groups/{groupId}/auditLogs';

describe('groups.follow: each bot account follows its own groups, side by side', () => {
  let t: TestApp;
  /** Four servers; groups 0 and 2 are served by the first account, 1 and 3 by the second. */
  const linked: { guildId: string; groupId: string; account: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, vrchatAccounts: 2 });
    const made = await t.control('POST', '/vrchat/bulk-groups', {
      count: 4,
      botUserIds: bots.map((b) => b.userId),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    for (const [i, group] of (made.body.groups as { id: string }[]).entries()) {
      const account = demo.vrchatBots[i % 2]?.username as string;
      const guildId = `91000000000000000${i}`;
      linked.push({ guildId, groupId: group.id, account });
      await guildGroup(t, {
        guildId,
        groupId: group.id,
        name: `Bulk ${i}`,
        enabled: true,
        vrchatAccount: account,
      });
    }
    // The first pass only starts the cursors (no read).
    await followGroupAuditLogs(t.ctx);
  });
  afterAll(() => t?.close());

  const followedAt = async () => {
    const { rows } = await t.ctx.database.executeSql(
      'select guild_id, followed_at from guild_sync_state where guild_id = any($1)',
      [linked.map((l) => l.guildId)],
    );
    return new Map(rows.map((r) => [r.guild_id as string, new Date(r.followed_at as string).getTime()]));
  };
  /** Makes `guildId` the longest unpolled (the one a single loop over every group would read first). */
  const oldest = (guildId: string) =>
    t.ctx.database.executeSql(
      "update guild_sync_state set followed_at = now() - interval '1 hour' where guild_id = $1",
      [guildId],
    );
  const auditReads = async () => {
    const { body } = await t.control('GET', '/vrchat/counters');
    return bots.map((b) => body.byAccount[b.userId]?.byRoute[AUDIT]?.requests ?? 0);
  };

  it("follows one account's groups while the other account's read hangs (not one group at a time across all accounts)", async () => {
    const [, slow, , other] = linked as [
      (typeof linked)[0],
      (typeof linked)[0],
      (typeof linked)[0],
      (typeof linked)[0],
    ];
    await oldest(slow.guildId);
    // VRChat holds the second account's first read for 3 s.
    const fault = await t.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'slow',
      delayMs: 3000,
      count: 1,
      pathContains: `/groups/${slow.groupId}/auditLogs`,
    });
    expect(fault.status).toBe(201);
    await t.control('DELETE', '/vrchat/counters');

    expect(await followGroupAuditLogs(t.ctx)).toBe(0);

    const at = await followedAt();
    // Every group of the first account was read before the held read came back.
    for (const l of linked.filter((g) => g.account !== slow.account))
      expect(at.get(l.guildId), l.groupId).toBeLessThan(at.get(slow.guildId) as number);
    // The second account went on in its own turn after it.
    expect(at.get(other.guildId)).toBeGreaterThan(at.get(slow.guildId) as number);
    // Each group's audit log was read once, through the account serving it.
    expect(await auditReads()).toEqual([2, 2]);
  });

  it("an account VRChat rate-limits stops its own loop only; the other account's groups are still followed", async () => {
    const [first, limited, third, fourth] = linked as [
      (typeof linked)[0],
      (typeof linked)[0],
      (typeof linked)[0],
      (typeof linked)[0],
    ];
    await oldest(limited.guildId);
    const before = await followedAt();
    // Every read of the second account's oldest group meets a 429 (past the transport's retries).
    await t.control('POST', '/faults', {
      platform: 'vrchat',
      kind: 'rate_limit',
      pathContains: `/groups/${limited.groupId}/auditLogs`,
    });
    try {
      await expect(followGroupAuditLogs(t.ctx)).rejects.toMatchObject({ status: 429 });
    } finally {
      await t.control('DELETE', '/faults?platform=vrchat');
    }
    const after = await followedAt();
    // The first account's groups were read; the second account's next group waits for the next pass.
    expect(after.get(first.guildId)).toBeGreaterThan(before.get(first.guildId) as number);
    expect(after.get(third.guildId)).toBeGreaterThan(before.get(third.guildId) as number);
    expect(after.get(fourth.guildId)).toBe(before.get(fourth.guildId));
  });

  it("spaces an account's reads to half its budget", () => {
    // 1 request a second: one follow read every 2 s (100 groups in 200 s); the rest is left to syncs and pages.
    expect(followSpacingMs(1)).toBe(2000);
    expect(followSpacingMs(20)).toBe(100);
  });
});
