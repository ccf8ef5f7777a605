import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './connection-lost.js';

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
