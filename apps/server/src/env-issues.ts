import type { z } from 'zod';

/** An issue as the per-parse error map sees it (zod 4's raw issue, its fields by code). */
type RawIssue = z.core.$ZodRawIssue;

const count = (n: unknown, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const TYPE_SENTENCES: Record<string, string> = {
  number: 'must be a number',
  int: 'must be a whole number',
  string: 'must be text',
  object: 'must be a JSON object',
  array: 'must be a list',
};

/**
 * The configuration's own sentence for what zod found, where the schema gives none (a schema's message wins over
 * this map): an operator who set PORT=eighty reads "must be a whole number", not the validator's "expected number,
 * received NaN". No sentence repeats the value: it may be a secret.
 */
export function configIssueSentence(issue: RawIssue): string {
  const { code } = issue;
  const bound = (issue as { minimum?: unknown; maximum?: unknown }).minimum ?? issue.maximum;
  const origin = issue.origin as string | undefined;
  const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
  if (code === 'invalid_type') return TYPE_SENTENCES[issue.expected as string] ?? 'has the wrong form';
  if (code === 'too_small' || code === 'too_big') {
    const small = code === 'too_small';
    if (origin === 'string')
      return `must be ${small ? 'at least' : 'at most'} ${count(bound, 'character', 'characters')}`;
    if (origin === 'array')
      return `must name ${small ? 'at least' : 'at most'} ${count(bound, 'entry', 'entries')}`;
    if (small) return inclusive ? `must be at least ${bound}` : `must be more than ${bound}`;
    return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
  }
  if (code === 'invalid_value') {
    const values = (issue as { values?: unknown[] }).values ?? [];
    return `must be one of ${values.map(String).join(', ')}`;
  }
  if (code === 'invalid_format' || code === 'invalid_union') {
    const format = (issue as { format?: string }).format;
    if (format === 'url') return 'must be a URL (https://…)';
    if (format === 'email') return 'must be an e-mail address';
    if (format === 'ipv4' || format === 'ipv6') return 'must be an IP address';
    return 'is not in the form this setting takes';
  }
  if (code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    return `has ${keys.length === 1 ? 'a field' : 'fields'} this setting does not know: ${keys.join(', ')}`;
  }
  return 'is not a value this setting takes';
}
