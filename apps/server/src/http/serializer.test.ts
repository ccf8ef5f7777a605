import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/app.js';
import { compileAllResponses, compileResponseSchema } from './serializer.js';

describe('production response serializer (compiled schemas)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('compiles every route response schema (none falls back to zod)', () => {
    expect(compileAllResponses()).toEqual([]);
  });

  it('answers the same bytes as zod for the routes without a database read', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual([
      'inviteUrl',
      'supportUrl',
      'contactEmail',
      'discordWebUrl',
      'vrchatWebUrl',
      'demoMode',
    ]);
    expect((await t.inject({ method: 'GET', url: '/api/health' })).body).toBe('{"status":"ok"}');
  });

  it('writes only the declared properties, like zod', () => {
    const schema = z.object({ id: z.string(), name: z.string().nullable(), at: z.date().optional() });
    const serialize = compileResponseSchema(schema);
    const data = { id: 'a', name: null, secret: 'never sent', at: new Date(0) };
    expect(serialize?.(data)).toBe(JSON.stringify(z.encode(schema, data)));
  });

  it('drops undeclared properties inside a nullable object or a union instead of answering 500', () => {
    const item = z.object({ kind: z.string(), name: z.string() });
    const schema = z.object({
      held: z.object({ count: z.number(), actions: z.array(item) }).nullable(),
      either: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
    });
    const serialize = compileResponseSchema(schema);
    const data = {
      held: {
        count: 1,
        stored: true,
        actions: [{ kind: 'remove', name: 'Glimmer', key: 'k', approved: true }],
      },
      either: { b: 2, extra: 'x' },
    };
    expect(serialize?.(data)).toBe(JSON.stringify(z.encode(schema, data)));
  });
});
