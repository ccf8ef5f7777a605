import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/app.js';
import { issueLoginToken } from '../wings/identity/auth/login-token.service.js';
import { storeDiscordTokens } from '../wings/identity/auth/user.service.js';
import { retentionPurgeHandler } from './handlers/retention-purge.js';
import { RETENTION_BATCH } from './history-retention.js';
import { purgeExpired } from './retention.js';

const HOUR = 60 * 60 * 1000;

describe('retention purge (privacy policy: at most 72 hours or until logout)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const count = async (table: string, where = 'true', values: unknown[] = []) =>
    Number(
      (await t.ctx.database.executeSql(`select count(*) as n from ${table} where ${where}`, values)).rows[0]
        .n,
    );

  async function userWithTokens() {
    const user = await signIn(t);
    await storeDiscordTokens(t.ctx.db, t.ctx.config.secretKey, user.id, {
      accessToken: 'a',
      refreshToken: 'r',
      scope: 'identify guilds',
      expiresAt: new Date(Date.now() + HOUR),
    });
    return user;
  }

  it('deletes sessions, one-time tokens and Discord tokens once the 72 hours are over, and nothing live', async () => {
    const live = await userWithTokens();
    const gone = await userWithTokens();
    await issueLoginToken(t.ctx.db, { id: gone.id, username: 'x', globalName: null, avatar: null });
    await t.ctx.database.executeSql(
      `update sessions set expires_at = now() - interval '1 minute' where user_id = $1`,
      [gone.id],
    );

    await purgeExpired(t.ctx.db, { keepDiscordTokens: false }, new Date(Date.now() + 11 * 60 * 1000));

    expect(await count('sessions', 'user_id = $1', [gone.id])).toBe(0);
    expect(await count('discord_tokens', 'user_id = $1', [gone.id])).toBe(0);
    expect(await count('login_tokens', 'user_id = $1', [gone.id])).toBe(0);
    expect(await count('sessions', 'user_id = $1', [live.id])).toBe(1);
    expect(await count('discord_tokens', 'user_id = $1', [live.id])).toBe(1);
  });

  it('keeps Discord tokens when linked roles need them', async () => {
    const user = await userWithTokens();
    await t.ctx.database.executeSql('delete from sessions where user_id = $1', [user.id]);
    await purgeExpired(t.ctx.db, { keepDiscordTokens: true });
    expect(await count('discord_tokens', 'user_id = $1', [user.id])).toBe(1);
  });
});

describe('history retention (AUDIT_LOG_RETENTION_DAYS, in batches)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { AUDIT_LOG_RETENTION_DAYS: '30' } });
  });
  afterAll(() => t.close());

  it('deletes audit rows older than the configured days, more than a batch of them, and keeps newer ones', async () => {
    const insert = (n: number, days: number, guildId: string) =>
      t.ctx.database.executeSql(
        `insert into audit_log (guild_id, action, created_at)
         select $1, 'test.action', now() - make_interval(days => $2) from generate_series(1, $3)`,
        [guildId, days, n],
      );
    // Old rows written after newer ones (ids do not follow time), in two servers.
    await insert(5, 1, '1');
    await insert(RETENTION_BATCH + 10, 31, '1');
    await insert(3, 29, '2');
    await insert(7, 400, '2');
    expect(t.ctx.config.retention).toEqual({ auditLogDays: 30, linkEventsDays: 90 });

    await retentionPurgeHandler.run(t.ctx, {});

    const { rows } = await t.ctx.database.executeSql(
      `select guild_id, count(*)::int as n, min(created_at) > now() - interval '30 days' as recent
       from audit_log where action = 'test.action' group by guild_id order by guild_id`,
    );
    expect(rows).toEqual([
      { guild_id: '1', n: 5, recent: true },
      { guild_id: '2', n: 3, recent: true },
    ]);
  });
});
