/** One failed check as fastify-type-provider-zod reports it: the zod issue's code, path, message and details. */
export interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Where the failure is, when the path inside it is empty. */
const wholePart: Record<string, string> = {
  body: 'The request body',
  querystring: 'The query string',
  params: 'The address',
  headers: 'The request headers',
};

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
};

const formatNames: Record<string, string> = {
  email: 'an email address',
  uuid: 'a UUID',
  guid: 'a UUID',
  url: 'an address (URL)',
  datetime: 'an ISO 8601 date-time, e.g. 2026-11-23T18:00:00Z',
  date: 'an ISO 8601 date, e.g. 2026-11-23',
};

/** `autoAssignRoles/linkedRoleId` → `autoAssignRoles.linkedRoleId`, `permissions/0` → `permissions[0]`. */
function fieldName(instancePath: string | undefined): string | undefined {
  const segments = (instancePath ?? '').split('/').filter(Boolean);
  if (segments.length === 0) return undefined;
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function plural(n: unknown, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The sentence for zod's own checks (its messages are validator text, never shown as they are). */
function describeBuiltIn(subject: string, issue: ValidationIssue): string {
  const p = issue.params ?? {};
  switch (issue.keyword) {
    case 'invalid_type':
      if (/received undefined$/.test(issue.message ?? '')) return `${subject} is missing.`;
      return `${subject} must be ${typeNames[String(p.expected)] ?? 'of another type'}.`;
    case 'too_small':
      if (p.origin === 'string')
        return Number(p.minimum) <= 1
          ? `${subject} must not be empty.`
          : `${subject} must be at least ${plural(p.minimum, 'character')} long.`;
      if (p.origin === 'array' || p.origin === 'set')
        return `${subject} must have at least ${plural(p.minimum, 'item')}.`;
      return `${subject} must be at least ${p.minimum}.`;
    case 'too_big':
      if (p.origin === 'string') return `${subject} must be at most ${plural(p.maximum, 'character')} long.`;
      if (p.origin === 'array' || p.origin === 'set')
        return `${subject} must have at most ${plural(p.maximum, 'item')}.`;
      return `${subject} must be at most ${p.maximum}.`;
    case 'invalid_value':
      if (Array.isArray(p.values) && p.values.length > 0)
        return p.values.length === 1
          ? `${subject} must be ${String(p.values[0])}.`
          : `${subject} must be one of: ${p.values.map(String).join(', ')}.`;
      return `${subject} is not valid.`;
    case 'invalid_format': {
      const format = formatNames[String(p.format)];
      return format ? `${subject} must be ${format}.` : `${subject} is not in the right format.`;
    }
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${p.divisor}.`;
    case 'unrecognized_keys': {
      const keys = Array.isArray(p.keys) ? p.keys.map(String) : [];
      return keys.length === 1
        ? `${subject} has a field it does not know: ${keys[0]}.`
        : `${subject} has fields it does not know: ${keys.join(', ')}.`;
    }
    default:
      return `${subject} is not valid.`;
  }
}

/** zod's own issue shape, as found inside a union's failure. */
interface ZodIssueLike {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  [detail: string]: unknown;
}

/**
 * A value matching none of a union's shapes: the issue of the shape it came closest to (fewest problems),
 * so `{"vrcId": …}` without its display name reads 'vrcDisplayName is missing.'.
 */
function closestUnionIssue(issue: ValidationIssue): ValidationIssue | undefined {
  const branches = issue.params?.errors;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const closest = (branches as ZodIssueLike[][]).reduce((a, b) => (b.length < a.length ? b : a));
  const first = closest[0];
  if (!first) return undefined;
  const { code, path, message, ...params } = first;
  const inner = (path ?? []).map(String).join('/');
  return {
    keyword: code,
    instancePath: [issue.instancePath ?? '', inner].filter(Boolean).join('/'),
    message,
    params,
  };
}

/**
 * A request that failed its schema, as one sentence for the user: the route's own message when it wrote
 * one (a sentence ending in '.', or 'must …' said of the field), else a sentence built from the check.
 */
export function describeValidation(issue: ValidationIssue | undefined, where = 'request'): string {
  const field = fieldName(issue?.instancePath);
  const subject = field ?? wholePart[where] ?? 'The request';
  if (!issue) return `${subject} is not valid.`;
  const message = issue.message?.trim() ?? '';
  // zod's own messages never end in a full stop; a route's sentences do.
  if (/[.!?]$/.test(message)) return message;
  if (/^must /.test(message)) return `${subject} ${message.replace(/\.$/, '')}.`;
  // A refinement's own message that is not a sentence yet ('Invalid input' is zod's default).
  if (issue.keyword === 'custom' && message && message !== 'Invalid input') {
    const text = message.replace(/\.$/, '');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  }
  if (issue.keyword === 'invalid_union') {
    const closest = closestUnionIssue(issue);
    if (closest) return describeValidation(closest, where);
  }
  return describeBuiltIn(subject, issue);
}
