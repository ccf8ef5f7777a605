import { z } from 'zod';

const csv = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
const optionalString = z
  .string()
  .optional()
  .transform((s) => (s?.trim() ? s.trim() : undefined));

/** Every environment variable the server reads; documented in README.md and .env.example. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  SECRET_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_DISCORD_IDS: csv,
  CONTACT_EMAIL: z.string().email().default('privacy@vrclink.example'),
  SUPPORT_URL: z.string().url().default('https://discord.gg/vrclink'),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_BOT_TOKEN: optionalString,
  DISCORD_API_URL: z.string().url().default('https://discord.com/api'),
  DISCORD_WEB_URL: z.string().url().default('https://discord.com'),
  DISCORD_CDN_URL: z.string().url().default('https://cdn.discordapp.com'),
  LINKED_ROLES_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  VRCHAT_USERNAME: optionalString,
  VRCHAT_PASSWORD: optionalString,
  VRCHAT_TOTP_SECRET: optionalString,
  VRCHAT_API_URL: z.string().url().default('https://api.vrchat.cloud/api/1'),
  VRCHAT_WEB_URL: z.string().url().default('https://vrchat.com'),
  VRCHAT_PIPELINE_URL: z.string().default('wss://pipeline.vrchat.cloud'),
  VRCHAT_CONTACT: z.string().default('admin@vrclink.app'),
  WORLD_MIRROR_URL: optionalString.pipe(z.string().url().optional()),
  SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
});
export type Env = z.infer<typeof envSchema>;

const platformCredentialKeys = [
  'DISCORD_CLIENT_ID',
  'DISCORD_CLIENT_SECRET',
  'DISCORD_BOT_TOKEN',
  'VRCHAT_USERNAME',
  'VRCHAT_PASSWORD',
  'VRCHAT_TOTP_SECRET',
] as const;

/** Parses the environment or throws one error listing every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const given = platformCredentialKeys.filter((k) => env[k]);
  if (given.length > 0 && given.length < platformCredentialKeys.length) {
    const missing = platformCredentialKeys.filter((k) => !env[k]);
    throw new Error(
      `Invalid configuration:\n  real mode needs all platform credentials; missing: ${missing.join(', ')}`,
    );
  }
  if (given.length > 0 && !env.SECRET_KEY) {
    throw new Error(
      'Invalid configuration:\n  SECRET_KEY: required in real mode (tokens are encrypted with it)',
    );
  }
  return env;
}

/** Demo mode = no platform credentials: the local simulators stand in for Discord and VRChat. */
export function isDemoMode(env: Env): boolean {
  return !env.DISCORD_CLIENT_ID;
}
