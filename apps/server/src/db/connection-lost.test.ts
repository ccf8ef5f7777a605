import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import {
  isConnectionLost,
  isDatabaseFailure,
  isDatabaseUnavailable,
  markConnectFailed,
} from './connection-lost.js';

const withCode = (code: string) => Object.assign(new Error('terminating connection'), { code });

describe('isConnectionLost', () => {
  it('recognises PostgreSQL ending the session (57P01, 57P02, 57P03)', () => {
    for (const code of ['57P01', '57P02', '57P03']) expect(isConnectionLost(withCode(code))).toBe(true);
  });

  it("recognises node-postgres' closed-connection errors, also wrapped as a cause", () => {
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated'))).toBe(true);
    const dead = new Error('Client has encountered a connection error and is not queryable');
    expect(isConnectionLost(new Error('Failed query: rollback', { cause: dead }))).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(isConnectionLost(withCode('23505'))).toBe(false);
    expect(isConnectionLost(new Error('boom'))).toBe(false);
    expect(isConnectionLost('Connection terminated')).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
  });
});

describe('isDatabaseUnavailable (the database refuses connections)', () => {
  const refused = () =>
    Object.assign(new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:5432')], ''), {
      code: 'ECONNREFUSED',
    });

  it('recognises a connection the pool could not open, also wrapped as a cause', () => {
    expect(isDatabaseUnavailable(markConnectFailed(refused()))).toBe(true);
    const wrapped = new DrizzleQueryError('select 1', [], markConnectFailed(refused()));
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it("recognises PostgreSQL's refusals by SQLSTATE 57P03 and by their words", () => {
    expect(isDatabaseUnavailable(withCode('57P03'))).toBe(true);
    for (const message of [
      'the database system is starting up',
      'the database system is shutting down',
      'the database system is not yet accepting connections',
      'the database system is not accepting connections',
      'database "vrclink" is not currently accepting connections',
      'timeout exceeded when trying to connect',
    ])
      expect(isDatabaseUnavailable(new Error('Failed query', { cause: new Error(message) }))).toBe(true);
  });

  it('leaves a refused socket the pool did not mark (a platform call) and other failures alone', () => {
    expect(isDatabaseUnavailable(refused())).toBe(false);
    expect(isDatabaseUnavailable(withCode('57P01'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});

describe('isDatabaseFailure (never reported as a platform failure)', () => {
  it("recognises the database's errors and leaves the network's alone", () => {
    const sqlError = Object.assign(new Error('relation "x" does not exist'), {
      code: '42P01',
      severity: 'ERROR',
    });
    expect(isDatabaseFailure(sqlError)).toBe(true);
    expect(isDatabaseFailure(new DrizzleQueryError('select 1', [], new Error('boom')))).toBe(true);
    expect(isDatabaseFailure(markConnectFailed(new Error('connect ECONNREFUSED')))).toBe(true);
    expect(isDatabaseFailure(withCode('57P01'))).toBe(true);
    expect(isDatabaseFailure(Object.assign(new Error('fetch failed'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isDatabaseFailure(new Error('Discord did not answer'))).toBe(false);
  });
});
