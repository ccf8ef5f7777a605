import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeValidation, type ValidationIssue } from './describeValidation.js';

/** The first issue of a failed parse, shaped as fastify-type-provider-zod hands it to the error handler. */
function firstIssue(schema: z.ZodType, input: unknown): ValidationIssue {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  const { code, path, message, ...params } = result.error.issues[0]!;
  return { keyword: code, instancePath: `/${path.join('/')}`, message, params };
}

const describeFailure = (schema: z.ZodType, input: unknown, where = 'body') =>
  describeValidation(firstIssue(schema, input), where);

describe('describeValidation', () => {
  it('says which field is missing or of the wrong type', () => {
    const body = z.object({ token: z.string(), count: z.number(), on: z.boolean() });
    expect(describeFailure(body, {})).toBe('token is missing.');
    expect(describeFailure(body, { token: 42 })).toBe('token must be a string.');
    expect(describeFailure(body, { token: 'x', count: 'many' })).toBe('count must be a number.');
    expect(describeFailure(body, { token: 'x', count: 1, on: 'yes' })).toBe('on must be true or false.');
  });

  it('gives lengths, bounds and choices in words', () => {
    expect(describeFailure(z.object({ a: z.string().min(1) }), { a: '' })).toBe('a must not be empty.');
    expect(describeFailure(z.object({ a: z.string().min(10) }), { a: 'short' })).toBe(
      'a must be at least 10 characters long.',
    );
    expect(describeFailure(z.object({ a: z.string().max(1) }), { a: 'ab' })).toBe(
      'a must be at most 1 character long.',
    );
    expect(describeFailure(z.object({ n: z.number().min(1) }), { n: 0 })).toBe('n must be at least 1.');
    expect(describeFailure(z.object({ l: z.array(z.string()).max(2) }), { l: ['a', 'b', 'c'] })).toBe(
      'l must have at most 2 items.',
    );
    expect(describeFailure(z.object({ sort: z.enum(['Up', 'Down']) }), { sort: 'x' }, 'querystring')).toBe(
      'sort must be one of: Up, Down.',
    );
    expect(describeFailure(z.object({ id: z.uuid() }), { id: 'x' }, 'params')).toBe('id must be a UUID.');
    expect(describeFailure(z.object({ l: z.array(z.enum(['A'])) }), { l: ['B'] })).toBe('l[0] must be A.');
  });

  it('names unknown fields and whole-body problems', () => {
    expect(describeFailure(z.object({ a: z.object({}).strict() }), { a: { x: 1 } })).toBe(
      'a has a field it does not know: x.',
    );
    expect(describeFailure(z.object({}).strict(), { x: 1, y: 2 })).toBe(
      'The request body has fields it does not know: x, y.',
    );
    expect(describeFailure(z.object({ a: z.string() }), 'text')).toBe('The request body must be an object.');
  });

  it("uses a route's own message: a sentence as it is, 'must …' said of the field", () => {
    expect(
      describeFailure(z.object({ id: z.string().regex(/^\d+$/, 'must be a Discord id') }), { id: 'a' }),
    ).toBe('id must be a Discord id.');
    const sentence = z.object({ d: z.string().refine(() => false, 'd must be a date, e.g. 2026-11-23.') });
    expect(describeFailure(sentence, { d: 'x' })).toBe('d must be a date, e.g. 2026-11-23.');
    const refined = z.object({ a: z.string().optional() }).refine(() => false, 'give exactly one of a and b');
    expect(describeFailure(refined, {}, 'querystring')).toBe('Give exactly one of a and b.');
  });

  it('describes a union by the shape the value came closest to', () => {
    const body = z.union([
      z.object({ discordId: z.string() }).strict(),
      z.object({ vrcId: z.string(), vrcDisplayName: z.string() }).strict(),
    ]);
    expect(describeFailure(body, { vrcId: 'usr_x' })).toBe('vrcDisplayName is missing.');
    expect(describeFailure(z.object({ who: body }), { who: { discordId: 1 } })).toBe(
      'who.discordId must be a string.',
    );
  });

  it('never shows validator text', () => {
    for (const [schema, input] of [
      [z.object({ a: z.string().startsWith('x') }), { a: 'y' }],
      [z.object({ a: z.number().multipleOf(5) }), { a: 3 }],
      [z.object({ a: z.string() }), null],
    ] as const) {
      const text = describeFailure(schema, input);
      expect(text).toMatch(/\.$/);
      expect(text).not.toMatch(/Invalid|expected|Too (small|big)/);
    }
  });
});
