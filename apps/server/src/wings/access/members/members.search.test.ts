import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app.js';
import { matchesPage, searchMirror } from './members.search.js';

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function nodesOf(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(nodesOf)];
}

describe('member search by infix starts from the server', () => {
  let t: TestApp;
  const one = '1300000000000000001';
  const other = '1300000000000000002';
  beforeAll(async () => {
    t = await createTestApp();
    // Two servers of 2,000 members; four in each are named after zebras.
    for (const [guild, firstId] of [
      [one, '1400000000000000000'],
      [other, '1500000000000000000'],
    ])
      await t.ctx.database.executeSql(
        `insert into guild_members (guild_id, user_id, username, global_name)
         select $1, ($2::bigint + n)::text,
           case when n % 500 = 0 then 'zebra_' || n else 'member_' || n end, 'Member ' || n
         from generate_series(1, 2000) as n`,
        [guild, firstId],
      );
    await t.ctx.database.executeSql('analyze guild_members');
  });
  afterAll(() => t?.close());

  const query = { field: 'DiscordName', search: 'ebra', page: 1, pageSize: 25, linkedOnly: false } as const;

  it("finds only the server's own matches", async () => {
    const { total, rows } = await searchMirror(t.ctx.db, one, query);
    expect(total).toBe(4);
    expect(rows.map((r) => r.member.username)).toEqual([
      'zebra_1000',
      'zebra_1500',
      'zebra_2000',
      'zebra_500',
    ]);
    expect(new Set(rows.map((r) => r.member.guildId))).toEqual(new Set([one]));
  });

  it('reads each name through a trigram index that narrows to the server inside the index', async () => {
    // On a table this small the planner rightly walks the server's range of a btree (prefix index or key);
    // with members of a server spread over a big table (300,000 rows, 50 servers) it takes the trigram
    // indexes. Without the btrees (dropped in a transaction rolled back), the plan shows which trigram
    // indexes an infix search has: before, global ones that matched every server's members and left the
    // server to the heap recheck.
    let plan: Record<string, unknown> = {};
    const rolledBack = new Error('rolled back');
    await t.ctx.db
      .transaction(async (tx) => {
        await tx.execute(sql`drop index guild_members_username_prefix_idx, guild_members_global_name_prefix_idx,
          guild_members_nickname_prefix_idx, guild_members_user_idx`);
        await tx.execute(sql`alter table guild_members drop constraint guild_members_guild_id_user_id_pk`);
        await tx.execute(sql`set local enable_seqscan = off`);
        const { rows } = await tx.execute(
          sql`explain (format json) ${matchesPage(t.ctx.db, one, query).getSQL()}`,
        );
        plan = (rows[0] as { 'QUERY PLAN': [{ Plan: Record<string, unknown> }] })['QUERY PLAN'][0].Plan;
        throw rolledBack;
      })
      .catch((err: unknown) => {
        if (err !== rolledBack) throw err;
      });
    const indexScans = nodesOf(plan).filter((n) => n['Node Type'] === 'Bitmap Index Scan');
    // Whichever of the three it picks (a name index may also serve as the server's list), each is a
    // trigram index keyed by the server, and the server is in its index condition.
    expect(indexScans.length).toBeGreaterThan(0);
    for (const scan of indexScans) {
      expect(scan['Index Name']).toMatch(/^guild_members_guild_(username|global_name|nickname)_trgm_idx$/);
      expect(String(scan['Index Cond'])).toMatch(/guild_id = '1300000000000000001'/);
    }
  });
});
