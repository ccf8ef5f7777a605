import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isDiskFull } from './disk.js';

describe('isDiskFull', () => {
  it('recognises ENOSPC, a quota, PostgreSQL 53100 and the embedded database, also wrapped as a cause', () => {
    const withCode = (code: string) => Object.assign(new Error('write failed'), { code });
    expect(isDiskFull(withCode('ENOSPC'))).toBe(true);
    expect(isDiskFull(withCode('EDQUOT'))).toBe(true);
    expect(isDiskFull(new DrizzleQueryError('insert', [], withCode('53100')))).toBe(true);
    // PGlite's file system throws a plain object, numbered as Emscripten numbers ENOSPC.
    expect(
      isDiskFull(new DrizzleQueryError('create schema', [], { name: 'ErrnoError', errno: 51 } as never)),
    ).toBe(true);
    expect(isDiskFull(new Error('could not write to file "pg_wal/x": No space left on device'))).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(isDiskFull(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe(false);
    expect(isDiskFull({ name: 'ErrnoError', errno: 44 })).toBe(false);
    expect(isDiskFull(new Error('boom'))).toBe(false);
    expect(isDiskFull(undefined)).toBe(false);
  });
});
