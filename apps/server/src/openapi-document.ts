import pino from 'pino';
import { buildApp } from './app.js';
import { openDatabase } from './db/client.js';
import { parseEnv } from './env.js';
import { resolveConfig } from './kernel/config.js';
import { createContext } from './kernel/context.js';

/** The OpenAPI document as the server generates it, without listening (used to export and drift-check it). */
export async function generateOpenApiDocument(): Promise<string> {
  const env = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'openapi-export-key-not-secret-000',
  });
  const database = await openDatabase({ dataDir: 'memory://' });
  const ctx = createContext({ config: resolveConfig(env), database, log: pino({ level: 'silent' }) });
  const { app } = await buildApp({ ctx, webDist: null });
  await app.ready();
  const doc = JSON.stringify(app.swagger(), null, 2);
  await app.close();
  await database.close();
  return `${doc}\n`;
}
