import pino, { type DestinationStream, type Logger } from 'pino';
import type { Env } from './env.js';

/**
 * A query parameter whose value is a secret: the one-time `/login` and SDK tokens, OAuth codes and states,
 * keys, signatures, passwords (any name containing one of these words).
 */
const SECRET_QUERY_PARAM =
  /([?&][^=&\s"'#\\]*?(?:token|code|state|secret|passw|key|signature|sig|auth|session|otp|nonce)[^=&\s"'#\\]*=)[^&\s"'#\\]+/gi;

/**
 * The values of a failed database query, as Drizzle writes them into its error's message ("Failed query: …
 * params: …"), up to the end of that line (an escaped `\n` or the string's closing quote in JSON). They can hold
 * what a row holds: e-mail addresses, names, encrypted tokens.
 */
const QUERY_PARAMS = /((?:\\n|\n)params: )(?:\\[^n]|[^"\\\n])*/g;

/**
 * A log line with the values of secret-looking query parameters replaced by `[redacted]`, and a failed
 * database query's values by `[withheld]` (the query itself stays: it says what failed).
 */
export function redactSecrets(line: string): string {
  const redacted = line.includes('=') ? line.replace(SECRET_QUERY_PARAM, '$1[redacted]') : line;
  return redacted.includes('Failed query') ? redacted.replace(QUERY_PARAMS, '$1[withheld]') : redacted;
}

/**
 * The values in a database error's `detail`, which PostgreSQL fills from the row: "Key (email)=(…) already
 * exists." (a unique or foreign key) and "Failing row contains (…)." (a check or not-null constraint). The key's
 * columns and what went wrong stay.
 */
const DETAIL_VALUES =
  /^(Key \(.*?\)=\().*(\) (?:already exists|is not present|is still referenced|conflicts).*)$|^(Failing row contains \().*(\)\.?)$/s;

/**
 * pino's error serializer, without the values Drizzle keeps on a failed query's error (`params`) nor those in the
 * database driver's own error (`detail`, when a handler logs it unwrapped).
 */
function errWithoutQueryValues(err: unknown) {
  const serialized = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== 'object') return serialized;
  if ('params' in serialized && 'query' in serialized) serialized.params = '[withheld]';
  if (typeof serialized.detail === 'string')
    serialized.detail = serialized.detail.replace(DETAIL_VALUES, (_all, key, keyEnd, row, rowEnd) =>
      key ? `${key}[withheld]${keyEnd}` : `${row}[withheld]${rowEnd}`,
    );
  return serialized;
}
const options = (level: string) => ({ level, serializers: { err: errWithoutQueryValues } });

/**
 * Redacts every line on its way out, whatever put the URL in it (Fastify's request lines at debug, the slow
 * and failed request lines at info, an error's message or stack).
 */
function redacting(out: DestinationStream): DestinationStream {
  return { write: (line: string) => out.write(redactSecrets(line)) };
}

/**
 * The process's logger: lines a person can read in a terminal (pino-pretty), one JSON object a line otherwise
 * (a pipe, a file, a log collector) or when LOG_FORMAT=json asks for it. Secret query parameters never reach
 * the output. `destination` (default stdout) is for tests.
 */
export async function createLogger(
  env: Pick<Env, 'LOG_LEVEL' | 'LOG_FORMAT'>,
  destination?: DestinationStream,
): Promise<Logger> {
  const pretty = env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : Boolean(process.stdout.isTTY);
  const out = destination ?? pino.destination(1);
  if (!pretty) return pino(options(env.LOG_LEVEL), redacting(out));
  // Loaded only when wanted: a JSON-logging process does not pay for it at start. A development tool: a release
  // installed without devDependencies (`npm ci --omit=dev`) lacks it and logs JSON, unless LOG_FORMAT asks.
  const loaded = await import('pino-pretty').catch((err: unknown) => {
    if (env.LOG_FORMAT === 'pretty') throw err;
    return undefined;
  });
  if (!loaded) return pino(options(env.LOG_LEVEL), redacting(out));
  const pinoPretty = loaded.default;
  const stream = pinoPretty({
    colorize: !destination && Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    // Written at once, as JSON logging is: a line is never lost when the process exits.
    sync: true,
    ...(destination ? { destination } : {}),
  });
  return pino(options(env.LOG_LEVEL), redacting(stream));
}
