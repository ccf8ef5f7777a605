import { isIP } from 'node:net';
import { z } from 'zod';
import { configIssueSentence } from './env-issues.js';

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

/** One further VRChat bot account of VRCHAT_ACCOUNTS. */
const vrchatAccountEntry = z.strictObject({
  username: z.string().trim().min(1),
  password: z.string().min(1),
  totpSecret: z.string().trim().min(1),
  localAddress: z.union([z.ipv4(), z.ipv6()], { message: 'must be an IP address (IPv4 or IPv6)' }).optional(),
});
const vrchatAccountList = z.array(vrchatAccountEntry).max(50);
export type VrchatAccountEnv = z.infer<typeof vrchatAccountEntry>;

/** Where in VRCHAT_ACCOUNTS an issue is: "account 2, totpSecret" (the list's own issues: "the list"). */
function accountIssuePlace(path: readonly PropertyKey[]): string {
  const [index, ...field] = path;
  if (typeof index !== 'number') return 'the list';
  return [`account ${index + 1}`, ...field.map(String)].join(', ');
}

/** Fastify's trustProxy: `true`/`false`, a hop count, or addresses/CIDRs (and proxy-addr's loopback etc.). */
export type TrustProxy = boolean | number | string[];

const namedProxyRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (namedProxyRanges.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): TrustProxy => {
    const value = raw.trim().toLowerCase();
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d{1,3}$/.test(value)) return Number(value);
    const list = value.split(',').map((x) => x.trim());
    if (list.every(isProxyAddress)) return list;
    ctx.addIssue({
      code: 'custom',
      message: 'must be true, false, a hop count or a comma-separated list of addresses/CIDRs',
    });
    return z.NEVER;
  });

/** Every environment variable the server reads; documented in docs/configuration.md and .env.example. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: 127.0.0.1 in demo mode (anyone reaching it may sign in as anyone), 0.0.0.0 in real mode. */
  HOST: optionalString.pipe(z.string().optional()),
  PUBLIC_URL: optionalString.pipe(z.string().url().optional()),
  /** Which X-Forwarded-* senders to believe (host, protocol, client address); off: nobody's. */
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (lines for people) or `json` (one object a line); unset: pretty in a terminal, else JSON. */
  LOG_FORMAT: optionalString.pipe(z.enum(['pretty', 'json']).optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  SECRET_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /**
   * The key SECRET_KEY replaces, while rotating: what it encrypted is still read, and written again under
   * SECRET_KEY (docs/deploy.md, "Secret rotation"). Remove it once every process runs with the new key.
   */
  SECRET_KEY_PREVIOUS: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_DISCORD_IDS: csv,
  CONTACT_EMAIL: z.string().email().default('privacy@vrclink.example'),
  SUPPORT_URL: z.string().url().default('https://discord.gg/vrclink'),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_BOT_TOKEN: optionalString,
  DISCORD_API_URL: z.string().url().default('https://discord.com/api'),
  DISCORD_WEB_URL: z.string().url().default('https://discord.com'),
  DISCORD_CDN_URL: z.string().url().default('https://cdn.discordapp.com'),
  /** Unset: on in demo mode (so the demo shows Linked Roles), off otherwise. */
  LINKED_ROLES_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  VRCHAT_USERNAME: optionalString,
  VRCHAT_PASSWORD: optionalString,
  VRCHAT_TOTP_SECRET: optionalString,
  VRCHAT_API_URL: z.string().url().default('https://api.vrchat.cloud/api/1'),
  VRCHAT_WEB_URL: z.string().url().default('https://vrchat.com'),
  VRCHAT_PIPELINE_URL: z.string().default('wss://pipeline.vrchat.cloud'),
  VRCHAT_CONTACT: z.string().default('admin@vrclink.app'),
  /**
   * Test-only: runs the VRChat pacer N times faster, to match a simulator started with `timeScale: N`
   * (rates N times higher; pauses, backoffs and login cooldowns N times shorter). Never set in production.
   */
  VRCHAT_TIME_SCALE: z.coerce.number().positive().max(10_000).default(1),
  /**
   * The local address VRChat API requests leave from, for a host with several egress addresses. Processes
   * with different addresses keep one VRChat session each (VRChat may refuse a session from another address).
   */
  VRCHAT_LOCAL_ADDRESS: optionalString.pipe(
    z
      .union([z.ipv4(), z.ipv6()], { message: 'must be an IP address of this machine (IPv4 or IPv6)' })
      .optional(),
  ),
  /**
   * Further VRChat bot accounts after the first (VRCHAT_USERNAME …): a JSON list of
   * `{ "username", "password", "totpSecret", "localAddress"? }`. Each account holds at most 100 groups.
   */
  VRCHAT_ACCOUNTS: optionalString.transform((raw, ctx) => {
    if (!raw) return [];
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON list of accounts' });
      return z.NEVER;
    }
    const parsed = vrchatAccountList.safeParse(value, { error: configIssueSentence });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      ctx.addIssue({
        code: 'custom',
        message: `${accountIssuePlace(first?.path ?? [])}: ${first?.message ?? 'is not a list of accounts'}`,
      });
      return z.NEVER;
    }
    return parsed.data;
  }),
  WORLD_MIRROR_URL: optionalString.pipe(z.string().url().optional()),
  /** The git repository the world mirror pushes to (https URL with a token, an SSH address, or a path). */
  WORLD_MIRROR_REMOTE: optionalString,
  WORLD_MIRROR_BRANCH: z
    .string()
    .regex(/^[A-Za-z0-9._/-]+$/, 'must be a branch name')
    .default('main'),
  /** Path of the private key for an SSH remote (GIT_SSH_COMMAND uses it). */
  WORLD_MIRROR_SSH_KEY: optionalString,
  SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /** A simulator another process already runs (demo mode); unset: use one on SIMULATOR_PORT or start it. */
  SIMULATOR_URL: optionalString.pipe(z.string().url().optional()),
  /**
   * The demo simulator's rate limits: `strict` (default, as Discord and VRChat limit) or `lax` for test runs that
   * sign many people in from one address at once (the browser journeys), which real platforms never see.
   */
  SIMULATOR_LIMITS: z.enum(['strict', 'lax']).default('strict'),
  PROCESS_ROLES: z
    .string()
    .default('api,bot,worker')
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.enum(['api', 'bot', 'worker'], { message: 'roles are api, bot and worker' }))
        .min(1, 'name at least one of api, bot, worker'),
    ),
  /** Requests per window and client address to the routes that write for anonymous callers; 0: no limit. */
  RATE_LIMIT_ANONYMOUS: z.coerce.number().int().min(0).default(30),
  /** Requests per window to /api by one signed-in user; 0: no limit. */
  RATE_LIMIT_USER: z.coerce.number().int().min(0).default(600),
  /** Requests per window to /api by one API key (its own bucket, apart from users); 0: no limit. */
  RATE_LIMIT_API_KEY: z.coerce.number().int().min(0).default(300),
  /** The rate limits' fixed window, in seconds. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
  /** Days the audit log keeps a row (the retention job deletes older ones); 0: kept forever. */
  AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(365),
  /** Days a processed link event is kept (its link changes stay counted in a summary); 0: kept forever. */
  LINK_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(90),
  /**
   * On SIGTERM or SIGINT: how long requests in flight and running jobs get to finish before the process cuts
   * them and exits (a process manager's stop timeout must be longer, see docs/operations.md).
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /**
   * Liveness, readiness and /metrics on a port of their own (on HOST), for processes without the api role;
   * unset: none. docs/deploy.md, "Health checks".
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Bearer token /metrics asks for; unset: /metrics only on HEALTH_PORT, never on the public listener. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** This process's name on /admin (scheduled tasks are registered under it); default host name + pid. */
  INSTANCE_NAME: optionalString,
  /**
   * Gateway sharding (bots in more than 2,500 servers): total shards (unset: Discord's recommendation) and the
   * ids this process runs (unset: the free ones, at most SHARDS_PER_PROCESS).
   */
  SHARD_COUNT: z.coerce.number().int().min(1).max(1024).optional(),
  SHARD_IDS: optionalString.pipe(
    z
      .string()
      .regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of shard numbers')
      .optional(),
  ),
  SHARDS_PER_PROCESS: z.coerce.number().int().min(1).max(1024).optional(),
  /** World Images: the largest upload, in bytes (default 10 MB). */
  WORLD_IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  /** World Images: the most pixels an upload may declare (width × height), checked before decoding. */
  WORLD_IMAGE_MAX_PIXELS: z.coerce.number().int().min(1).max(268_402_689).default(40_000_000),
  /** World Images: how many images one server may keep. */
  WORLD_IMAGE_MAX_PER_GUILD: z.coerce.number().int().min(1).max(100_000).default(200),
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
  const parsed = envSchema.safeParse(source, { error: configIssueSentence });
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
  if (given.length > 0 && !env.PUBLIC_URL) {
    throw new Error(
      'Invalid configuration:\n  PUBLIC_URL: required in real mode (the address users reach the site at; the OAuth redirect address and the package listing are built from it, never from the request)',
    );
  }
  if (given.length > 0 && !env.SECRET_KEY) {
    throw new Error(
      'Invalid configuration:\n  SECRET_KEY: required in real mode (tokens are encrypted with it)',
    );
  }
  if (env.VRCHAT_ACCOUNTS.length > 0 && !env.VRCHAT_USERNAME)
    throw new Error(
      'Invalid configuration:\n  VRCHAT_ACCOUNTS: lists the accounts after the first; set VRCHAT_USERNAME, VRCHAT_PASSWORD and VRCHAT_TOTP_SECRET for the first',
    );
  const usernames = [env.VRCHAT_USERNAME, ...env.VRCHAT_ACCOUNTS.map((a) => a.username)].map((u) =>
    u?.toLowerCase(),
  );
  if (new Set(usernames).size !== usernames.length)
    throw new Error('Invalid configuration:\n  VRCHAT_ACCOUNTS: names an account twice');
  if (env.SHARD_IDS && !env.SHARD_COUNT)
    throw new Error('Invalid configuration:\n  SHARD_IDS: needs SHARD_COUNT');
  if (
    env.SHARD_IDS &&
    env.SHARD_COUNT &&
    env.SHARD_IDS.split(',').some((id) => Number(id) >= (env.SHARD_COUNT ?? 1))
  )
    throw new Error('Invalid configuration:\n  SHARD_IDS: every shard id must be below SHARD_COUNT');
  return env;
}

/** Demo mode = no platform credentials: the local simulators stand in for Discord and VRChat. */
export function isDemoMode(env: Env): boolean {
  return !env.DISCORD_CLIENT_ID;
}

/** The interface to listen on: HOST, else loopback only in demo mode and every interface in real mode. */
export function listenHost(env: Env): string {
  return env.HOST ?? (isDemoMode(env) ? '127.0.0.1' : '0.0.0.0');
}
