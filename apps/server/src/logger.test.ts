import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { openTestDatabase } from '../test/db.js';
import { createLogger, redactSecrets } from './logger.js';

/** A destination that keeps every line written to it. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

describe('tokens in the logs', () => {
  const out = capture();
  let t: TestApp;
  beforeAll(async () => {
    const log = await createLogger({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, out.stream);
    t = await createTestApp({ env: { LOG_LEVEL: 'debug' }, log });
  });
  afterAll(() => t?.close());

  it('never writes the one-time /login token nor the SDK request token of a logged URL', async () => {
    await t.inject({ method: 'GET', url: '/api/discord_auth/preview?token=LoginSecret123' });
    await t.inject({ method: 'GET', url: '/api/discord_auth?token=LoginSecret456&lang=en' });
    await t.inject({ method: 'GET', url: '/sdk-oauth?token=SdkSecret789' });
    await t.inject({ method: 'GET', url: '/api/login/callback?code=OauthCode1&state=OauthState1' });
    const text = out.text();
    // The request lines were written (debug), with their paths and the harmless parameters.
    expect(text).toContain('/api/discord_auth/preview?token=[redacted]');
    expect(text).toContain('token=[redacted]&lang=en');
    expect(text).toContain('/sdk-oauth?token=[redacted]');
    for (const secret of ['LoginSecret123', 'LoginSecret456', 'SdkSecret789', 'OauthCode1', 'OauthState1'])
      expect(text).not.toContain(secret);
  });

  it('redacts a URL logged at info (a slow or failed request), in JSON and in the readable format', async () => {
    for (const format of ['json', 'pretty'] as const) {
      const sink = capture();
      const log = await createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: format }, sink.stream);
      log.warn({ url: '/api/guilds?api_key=KeySecret1&page=2' }, 'slow request');
      log.error({ err: new Error('GET /x?access_token=TokSecret2 failed') }, 'request failed');
      await new Promise((r) => setImmediate(r));
      expect(sink.text()).toContain('api_key=[redacted]&page=2');
      expect(sink.text()).not.toMatch(/KeySecret1|TokSecret2/);
    }
  });

  it('leaves other query parameters and lines alone', () => {
    expect(redactSecrets('{"url":"/api/members?page=2&search=bob"}')).toBe(
      '{"url":"/api/members?page=2&search=bob"}',
    );
  });
});

describe("a failed query's values in the logs", () => {
  it('writes the query that failed and withholds its values, in JSON and in the readable format, also as a cause', async () => {
    const database = await openTestDatabase();
    let failed: unknown;
    try {
      // A real failure through Drizzle: its error carries the values in its message and its `params`.
      await database.db.execute(sql`select ${'member@example.com'}::text, ${'Jasper "Vale"'}::text, 1 / 0`);
    } catch (err) {
      failed = err;
    } finally {
      await database.close();
    }
    expect(String((failed as Error).message)).toContain('member@example.com');
    for (const format of ['json', 'pretty'] as const) {
      const sink = capture();
      const log = await createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: format }, sink.stream);
      log.error({ err: failed }, 'member update failed');
      log.error({ err: new Error('the sync failed', { cause: failed }) }, 'sync failed');
      await new Promise((r) => setImmediate(r));
      const text = sink.text();
      expect(text).toContain('Failed query: select');
      expect(text).toContain('[withheld]');
      expect(text, format).not.toMatch(/member@example\.com|Vale/);
    }
  });

  it('withholds the values a constraint names in its detail (Key (…)=(…)), keeping which key it was', async () => {
    const database = await openTestDatabase();
    const failures: unknown[] = [];
    const attempt = (query: ReturnType<typeof sql>) =>
      database.db.execute(query).catch((err) => failures.push(err));
    try {
      await database.db.execute(
        sql`create table log_probe (email text unique, note text check (length(note) < 5))`,
      );
      await database.db.execute(sql`insert into log_probe values (${'member@example.com'}, null)`);
      await attempt(sql`insert into log_probe values (${'member@example.com'}, null)`);
      await attempt(sql`insert into log_probe values (${'other@example.com'}, ${'Jasper (Vale)'})`);
    } finally {
      await database.close();
    }
    const causes = failures.map((failed) => (failed as Error).cause as { detail?: string });
    expect(causes.map((c) => c.detail)).toEqual([
      expect.stringContaining('member@example.com'),
      expect.stringContaining('Jasper (Vale)'),
    ]);
    for (const format of ['json', 'pretty'] as const) {
      const sink = capture();
      const log = await createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: format }, sink.stream);
      for (const [i, failed] of failures.entries()) {
        // The driver's own error, as a handler that unwrapped it logs it: its `detail` is one of its fields.
        log.error({ err: causes[i] }, 'member update failed');
        log.error({ err: failed }, 'member update failed');
        log.error({ err: new Error('the sync failed', { cause: failed }) }, 'sync failed');
      }
      await new Promise((r) => setImmediate(r));
      const text = sink.text();
      expect(text, format).toContain('Key (email)=([withheld]) already exists');
      expect(text, format).toContain('Failing row contains ([withheld])');
      expect(text, format).not.toMatch(/member@example\.com|other@example|Vale/);
    }
  });
});
