import pino, { type Logger } from 'pino';
import type { Env } from './env.js';

/**
 * The process's logger: lines a person can read in a terminal (pino-pretty), one JSON object a line otherwise
 * (a pipe, a file, a log collector) or when LOG_FORMAT=json asks for it.
 */
export async function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'LOG_FORMAT'>): Promise<Logger> {
  const pretty = env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : Boolean(process.stdout.isTTY);
  if (!pretty) return pino({ level: env.LOG_LEVEL });
  // Loaded only when wanted: a JSON-logging process does not pay for it at start. A development tool: a release
  // installed without devDependencies (`npm ci --omit=dev`) lacks it and logs JSON, unless LOG_FORMAT asks.
  const loaded = await import('pino-pretty').catch((err: unknown) => {
    if (env.LOG_FORMAT === 'pretty') throw err;
    return undefined;
  });
  if (!loaded) return pino({ level: env.LOG_LEVEL });
  const pinoPretty = loaded.default;
  const stream = pinoPretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    // Written at once, as JSON logging is: a line is never lost when the process exits.
    sync: true,
  });
  return pino({ level: env.LOG_LEVEL }, stream);
}
