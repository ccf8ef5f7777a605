import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { signInHangoutOwner } from '../../../../test/factories.js';
import { discordLogDeliverHandler } from '../../../jobs/handlers/discord-log-deliver.js';
import { findJob } from '../../../jobs/registry.js';
import { waitFor } from '../../../platforms/testing.js';

const { hangout } = seedGuildIds;

describe('the discordLog.deliver job (pg-boss, against the simulated Discord)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forManyDiscordCalls, jobs: true });
  });
  afterAll(() => t?.close());

  it('is registered, queued by the write instead of posting in the request, and posts when run', async () => {
    expect(findJob('discordLog.deliver')).toBe(discordLogDeliverHandler);
    const owner = await signInHangoutOwner(t);
    const channel = (await t.control('POST', `/discord/guilds/${hangout.id}/channels`, { name: 'job-log' }))
      .body.id as string;
    const res = await t.inject({
      method: 'PATCH',
      url: `/api/guilds/logging/${hangout.id}/config`,
      payload: { channelId: channel, eventTypes: ['settings'] },
      session: owner.session,
    });
    expect(res.statusCode, res.body).toBe(200);
    // The request wrote the post to the outbox and queued the job; it posted nothing itself.
    const queued = await waitFor(async () => {
      const jobs = await t.ctx.database.executeSql(
        `select state from pgboss.job where name = 'discordLog.deliver'`,
      );
      return jobs.rows.length > 0 ? jobs.rows : null;
    });
    expect(queued).toEqual([{ state: 'created' }]);
    expect((await t.control('GET', `/discord/channels/${channel}/messages`)).body).toEqual([]);
    await discordLogDeliverHandler.run(t.ctx, {});
    const messages = (await t.control('GET', `/discord/channels/${channel}/messages`)).body as {
      embeds: { title: string }[];
    }[];
    expect(messages.map((m) => m.embeds[0]?.title)).toEqual(['Settings changes']);
  });

  it('posts an outbox row once even when its delete was lost (a worker died after posting it)', async () => {
    const owner = await signInHangoutOwner(t);
    const channel = (await t.control('POST', `/discord/guilds/${hangout.id}/channels`, { name: 'once-log' }))
      .body.id as string;
    const res = await t.inject({
      method: 'PATCH',
      url: `/api/guilds/logging/${hangout.id}/config`,
      payload: { channelId: channel, eventTypes: ['settings'] },
      session: owner.session,
    });
    expect(res.statusCode, res.body).toBe(200);
    const sql = (text: string, values?: unknown[]) => t.ctx.database.executeSql(text, values);
    const [row] = (await sql(`select * from discord_log_outbox where channel_id = $1`, [channel])).rows;
    expect(row).toBeTruthy();
    await discordLogDeliverHandler.run(t.ctx, {});
    const transcript = async () =>
      (await t.control('GET', `/discord/channels/${channel}/messages`)).body as { id: string }[];
    expect(await transcript()).toHaveLength(1);
    // The post went out but its delete never happened: the row is due again, as after a crash and its lease.
    await sql(
      `insert into discord_log_outbox (id, guild_id, channel_id, audit_id, event_type, attempts)
       values ($1, $2, $3, $4, $5, 1)`,
      [row.id, row.guild_id, row.channel_id, row.audit_id, row.event_type],
    );
    await discordLogDeliverHandler.run(t.ctx, {});
    expect((await sql(`select 1 from discord_log_outbox where channel_id = $1`, [channel])).rows).toEqual([]);
    // Sent again with the row's nonce: Discord answered the first message and posted nothing new.
    expect(await transcript()).toHaveLength(1);
  });
});
