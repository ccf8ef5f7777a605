import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, vrchatLink } from '../../../../test/factories.js';
import { recordQueries } from '../../../../test/query-log.js';
import { waitFor } from '../../../platforms/testing.js';

const { hangout } = seedGuildIds;
/** Servers of the bot that the owner is not in. */
const BULK = 24;

/**
 * Issue #31: what a request reads does not grow with the bot's servers or a server's members. `/api/guilds`
 * starts from the caller's own memberships (not a row per server of the bot, twice), and the Discord tab reads
 * the member totals the triggers keep (not a count of the server's member rows).
 */
describe('request reads that do not grow with the bot (against the simulator)', () => {
  let t: TestApp, owner: { id: string; session: string };
  const one = async (sql: string, values?: unknown[]) =>
    (await t.ctx.database.executeSql(sql, values)).rows[0] as Record<string, unknown>;

  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    const made = await t.control('POST', '/discord/bulk-guilds', { count: BULK, membersPerGuild: 3 });
    expect(made.status).toBeLessThan(300);
    // Every server written and its mirror complete (the usual state once the gateway holder has filled).
    await waitFor(async () => {
      const r = await one(`select (select count(*)::int from guild_snapshots) as snapshots,
        (select count(*)::int from guild_member_sync where mode = 'full' and filled_at is not null) as complete`);
      return Number(r.snapshots) >= BULK + 2 && Number(r.complete) === Number(r.snapshots);
    }, 60_000);
  }, 90_000);
  afterAll(() => t?.close());

  const read = async (url: string) => {
    const log = recordQueries(t.ctx.db);
    try {
      const res = await t.inject({ method: 'GET', url, session: owner.session });
      expect(res.statusCode).toBe(200);
      return { body: res.json(), queries: await log.queries() };
    } finally {
      log.stop();
    }
  };

  it('lists the caller’s servers reading rows for their servers, not for each of the bot’s', async () => {
    const { body, queries } = await read('/api/guilds');
    expect(body.map((g: { id: string }) => g.id)).toContain(hangout.id);
    const rows = queries.reduce((sum, q) => sum + q.rows, 0);
    expect(rows, queries.map((q) => `${q.rows} ${q.text.slice(0, 80)}`).join('\n')).toBeLessThan(BULK);
  });

  it('answers the Discord tab’s counts without counting the server’s member rows', async () => {
    const { body, queries } = await read(`/api/guilds/${hangout.id}`);
    const counts = queries.filter((q) => /count\(/i.test(q.text) && /guild_members/.test(q.text));
    expect(counts.map((q) => q.text)).toEqual([]);
    const exact = await one(
      `select count(*)::int as members, count(l.discord_user_id)::int as linked from guild_members m
         left join vrchat_links l on l.discord_user_id = m.user_id where m.guild_id = $1 and m.left_at is null`,
      [hangout.id],
    );
    expect({ members: body.members, linkedMembers: body.linkedMembers }).toEqual({
      members: exact.members,
      linkedMembers: exact.linked,
    });
  });

  it('keeps the member totals through links, leaves, returns, role changes, unlinks and deletions', async () => {
    const totals = async (guildId: string) =>
      one('select members, linked from guild_member_totals where guild_id = $1', [guildId]);
    const counted = async (guildId: string) =>
      one(
        `select count(*)::int as members, count(l.discord_user_id)::int as linked from guild_members m
           left join vrchat_links l on l.discord_user_id = m.user_id where m.guild_id = $1 and m.left_at is null`,
        [guildId],
      );
    const row = await one(
      `select user_id from guild_members where guild_id = $1 and not bot and left_at is null
        and user_id not in (select discord_user_id from vrchat_links) order by user_id limit 1`,
      [hangout.id],
    );
    const userId = row.user_id as string;
    await vrchatLink(t, { discordUserId: userId, vrchatName: 'Totals Member' });
    expect(await totals(hangout.id)).toEqual(await counted(hangout.id));
    await t.ctx.database.executeSql(
      'update guild_members set left_at = now() where guild_id = $1 and user_id = $2',
      [hangout.id, userId],
    );
    expect(await totals(hangout.id)).toEqual(await counted(hangout.id));
    await t.ctx.database.executeSql(
      'update guild_members set left_at = null where guild_id = $1 and user_id = $2',
      [hangout.id, userId],
    );
    await t.ctx.database.executeSql(
      "update guild_members set role_ids = '{}' where guild_id = $1 and user_id = $2",
      [hangout.id, userId],
    );
    expect(await totals(hangout.id)).toEqual(await counted(hangout.id));
    await t.ctx.database.executeSql('delete from vrchat_links where discord_user_id = $1', [userId]);
    expect(await totals(hangout.id)).toEqual(await counted(hangout.id));
    await t.ctx.database.executeSql('delete from guild_members where guild_id = $1 and user_id = $2', [
      hangout.id,
      userId,
    ]);
    expect(await totals(hangout.id)).toEqual(await counted(hangout.id));
  });
});
