import type { z } from 'zod';
import { invalidForm } from './errors.js';
import { isSnowflake } from './snowflake.js';

/** Maps a zod issue to Discord's field-error code and message (the codes Discord uses for these cases). */
function describe(issue: z.core.$ZodIssue): [string, string] {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? ['BASE_TYPE_REQUIRED', 'This field is required']
        : [`BASE_TYPE_${String(issue.expected).toUpperCase()}`, `Must be a valid ${issue.expected}.`];
    case 'too_big':
      if (issue.origin === 'string')
        return ['BASE_TYPE_BAD_LENGTH', `Must be ${issue.maximum} or fewer in length.`];
      if (issue.origin === 'array')
        return ['BASE_TYPE_MAX_LENGTH', `Must be ${issue.maximum} or fewer in length.`];
      return ['NUMBER_TYPE_MAX', `int value should be less than or equal to ${issue.maximum}.`];
    case 'too_small':
      if (issue.origin === 'string')
        return ['BASE_TYPE_BAD_LENGTH', `Must be ${issue.minimum} or more in length.`];
      if (issue.origin === 'array')
        return ['BASE_TYPE_MIN_LENGTH', `Must be ${issue.minimum} or more in length.`];
      return ['NUMBER_TYPE_MIN', `int value should be greater than or equal to ${issue.minimum}.`];
    case 'invalid_format':
      return ['STRING_TYPE_REGEX', 'String value did not match validation regex.'];
    case 'invalid_value':
      return ['BASE_TYPE_CHOICES', `Value must be one of ${JSON.stringify(issue.values)}.`];
    case 'custom':
      return [String(issue.params?.code ?? 'BASE_TYPE_INVALID'), issue.message];
    default:
      return ['BASE_TYPE_INVALID', issue.message];
  }
}

/** Parses a JSON body; failures become Discord's 50035 Invalid Form Body with per-field errors. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const fields: Record<string, [string, string]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.length ? issue.path.map(String).join('.') : '_root';
    fields[path] ??= describe(issue);
  }
  throw invalidForm(fields);
}

/** An integer query argument with Discord's defaults and 50035 on out-of-range values. */
export function queryInt(raw: unknown, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n))
    throw invalidForm({ [name]: ['NUMBER_TYPE_COERCE', `Value "${raw}" is not int.`] });
  if (n > max)
    throw invalidForm({ [name]: ['NUMBER_TYPE_MAX', `int value should be less than or equal to ${max}.`] });
  if (n < min)
    throw invalidForm({
      [name]: ['NUMBER_TYPE_MIN', `int value should be greater than or equal to ${min}.`],
    });
  return n;
}

export function querySnowflake(raw: unknown, name: string): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!isSnowflake(raw))
    throw invalidForm({ [name]: ['NUMBER_TYPE_COERCE', `Value "${raw}" is not snowflake.`] });
  return raw;
}

export function queryBool(raw: unknown): boolean {
  return raw === 'true' || raw === 'True' || raw === '1';
}
