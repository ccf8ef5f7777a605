import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { type Env, listenHost, type TrustProxy } from '../env.js';

/** Runtime configuration, resolved from the environment (and, in demo mode, from the simulator). */
export type ProcessRole = 'api' | 'bot' | 'worker';

/** Who this process is (scheduled tasks and /admin name it) and what it runs. */
export interface ProcessIdentity {
  /** The service name scheduled tasks are grouped under. */
  api: string;
  /** This instance's name: INSTANCE_NAME, else host name + pid. */
  container: string;
  roles: ReadonlySet<ProcessRole>;
}

export interface AppConfig {
  demoMode: boolean;
  process: ProcessIdentity;
  nodeEnv: Env['NODE_ENV'];
  logLevel: Env['LOG_LEVEL'];
  /**
   * The address users reach the product at (OAuth redirects, listing URLs, links the bot sends): PUBLIC_URL,
   * required in real mode; in demo mode the address the server prints (main.ts fills in the port it got).
   */
  publicUrl: string;
  /** Passed to Fastify: whose X-Forwarded-Host/Proto/For to believe (TRUST_PROXY). */
  trustProxy: TrustProxy;
  dataDir: string;
  databaseUrl?: string;
  /** 32-byte key for encrypting tokens at rest. */
  secretKey: Buffer;
  /** The key SECRET_KEY replaces (SECRET_KEY_PREVIOUS), still accepted for reading while rotating. */
  previousSecretKey?: Buffer;
  adminDiscordIds: ReadonlySet<string>;
  contactEmail: string;
  supportUrl: string;
  /** The bearer token /metrics asks for (METRICS_TOKEN); absent: /metrics only on HEALTH_PORT. */
  metricsToken?: string;
  /** Per-window request limits shared by every process (http/rate-limit.ts); 0 switches one off. */
  rateLimit: { anonymous: number; user: number; apiKey: number; windowMs: number };
  /** How long history tables keep rows (jobs/history-retention.ts), in days; 0 keeps them forever. */
  retention: { auditLogDays: number; linkEventsDays: number };
  /** GitHub Pages base of the world data mirror (the worlds' 'Trusted URL'), without a trailing slash. */
  worldMirrorUrl: string | null;
  /** Where the world mirror pushes (wings/worlds/world-mirror); `remote` null: no mirror. */
  worldMirror: WorldMirrorConfig;
  discord: {
    clientId: string;
    clientSecret: string;
    botToken: string;
    apiUrl: string;
    webUrl: string;
    cdnUrl: string;
    linkedRolesEnabled: boolean;
    /**
     * Gateway sharding (bot/start-bot.ts): `count` total shards (unset: Discord's recommendation from
     * `GET /gateway/bot`); `ids` the exact shards this process runs (it waits for all of them); else it takes
     * the free shards, at most `perProcess` of them (unset: all).
     */
    shards: { count?: number; ids?: number[]; perProcess?: number };
  };
  vrchat: {
    username: string;
    password: string;
    totpSecret: string;
    apiUrl: string;
    webUrl: string;
    pipelineUrl: string;
    contact: string;
    /** Test-only pacing speed-up (VRCHAT_TIME_SCALE; 1 in production). */
    timeScale: number;
    /** The local address VRChat API requests leave from (VRCHAT_LOCAL_ADDRESS); undefined: the system's. */
    localAddress?: string;
    /**
     * The bot accounts after the first (VRCHAT_ACCOUNTS, in order; the first is `username` … above). Each
     * has its own login, session, request budget and pacer; each serves at most 100 linked groups.
     * `vrchatAccountsOf` lists them all.
     */
    moreAccounts: VrchatAccountConfig[];
  };
  /** Upload limits of World Images (wings/worlds/world-images). */
  worldImages: { maxBytes: number; maxPixels: number; maxPerGuild: number };
}

/** One VRChat bot account: its login and, optionally, the local address its requests leave from. */
export interface VrchatAccountConfig {
  username: string;
  password: string;
  totpSecret: string;
  localAddress?: string;
}

/** Every configured VRChat bot account, the first (VRCHAT_USERNAME …) first. */
export function vrchatAccountsOf(vrchat: AppConfig['vrchat']): VrchatAccountConfig[] {
  const { username, password, totpSecret, localAddress } = vrchat;
  return [{ username, password, totpSecret, localAddress }, ...vrchat.moreAccounts];
}

/** VRChat lets one account be in at most this many groups; an account serves at most this many linked groups. */
export const VRCHAT_GROUPS_PER_ACCOUNT = 100;

export interface WorldMirrorConfig {
  /** A git URL (a token may be in it: never log it unredacted) or a local path; null: no mirror. */
  remote: string | null;
  branch: string;
  /** Private key file for an SSH remote. */
  sshKeyFile: string | null;
  /** The working clone and other state: DATA_DIR/world-mirror. */
  dir: string;
  /** Demo mode without a remote: a bare repository under DATA_DIR, served by this server at /mirror. */
  servedLocally: boolean;
}

/** Demo mode mirrors to a local bare repository (and serves it) unless a remote is configured. */
function resolveWorldMirror(env: Env, demoMode: boolean): WorldMirrorConfig {
  const servedLocally = demoMode && !env.WORLD_MIRROR_REMOTE;
  return {
    remote: servedLocally ? resolve(env.DATA_DIR, 'world-mirror.git') : (env.WORLD_MIRROR_REMOTE ?? null),
    branch: env.WORLD_MIRROR_BRANCH,
    sshKeyFile: env.WORLD_MIRROR_SSH_KEY ? resolve(env.WORLD_MIRROR_SSH_KEY) : null,
    dir: resolve(env.DATA_DIR, 'world-mirror'),
    servedLocally,
  };
}

/** Reads SECRET_KEY, or in demo mode a key generated once and kept in DATA_DIR (so restarts can decrypt). */
export function resolveSecretKey(env: Pick<Env, 'SECRET_KEY' | 'DATA_DIR'>): Buffer {
  if (env.SECRET_KEY) return createHash('sha256').update(env.SECRET_KEY).digest();
  const file = join(env.DATA_DIR, 'secret.key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    mkdirSync(env.DATA_DIR, { recursive: true });
    const key = randomBytes(32);
    writeFileSync(file, key.toString('hex'), { mode: 0o600 });
    return key;
  }
}

/** The platform addresses and credentials a running simulator stands in for. */
export interface SimulatorEndpoints {
  url: string;
  discord: { clientId: string; clientSecret: string; botToken: string };
  vrchat: { username: string; password: string; totpSecret: string };
  /** Further bot accounts the simulator has (demo mode serves groups with two accounts). */
  vrchatAccounts?: { username: string; password: string; totpSecret: string }[];
  adminDiscordUserId: string;
}

/**
 * The address the server prints once listening and, without PUBLIC_URL, the one it builds links from: one address
 * for both, since 127.0.0.1 and localhost are different cookie origins (a link to the other lands signed out).
 * Listening on every interface, it names the loopback one.
 */
export function listeningUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::') return `http://127.0.0.1:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Builds the runtime config; in demo mode the simulator's addresses and demo credentials fill the gaps. */
export function resolveConfig(env: Env, simulator?: SimulatorEndpoints): AppConfig {
  const sim = simulator;
  const admins = new Set(env.ADMIN_DISCORD_IDS);
  if (sim) admins.add(sim.adminDiscordUserId);
  const moreAccounts: VrchatAccountConfig[] = sim
    ? (sim.vrchatAccounts ?? []).map((a) => ({ ...a, localAddress: env.VRCHAT_LOCAL_ADDRESS }))
    : env.VRCHAT_ACCOUNTS;
  return {
    demoMode: Boolean(sim),
    process: {
      api: 'vrclink',
      container: env.INSTANCE_NAME ?? `${hostname()}-${process.pid}`,
      roles: new Set(env.PROCESS_ROLES),
    },
    nodeEnv: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, '') ?? listeningUrl(listenHost(env), env.PORT),
    trustProxy: env.TRUST_PROXY,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    secretKey: resolveSecretKey(env),
    previousSecretKey: env.SECRET_KEY_PREVIOUS
      ? createHash('sha256').update(env.SECRET_KEY_PREVIOUS).digest()
      : undefined,
    adminDiscordIds: admins,
    contactEmail: env.CONTACT_EMAIL,
    supportUrl: env.SUPPORT_URL,
    metricsToken: env.METRICS_TOKEN,
    rateLimit: {
      anonymous: env.RATE_LIMIT_ANONYMOUS,
      user: env.RATE_LIMIT_USER,
      apiKey: env.RATE_LIMIT_API_KEY,
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
    },
    retention: {
      auditLogDays: env.AUDIT_LOG_RETENTION_DAYS,
      linkEventsDays: env.LINK_EVENTS_RETENTION_DAYS,
    },
    worldMirrorUrl: env.WORLD_MIRROR_URL?.replace(/\/$/, '') ?? null,
    worldMirror: resolveWorldMirror(env, Boolean(sim)),
    discord: {
      clientId: sim?.discord.clientId ?? env.DISCORD_CLIENT_ID ?? '',
      clientSecret: sim?.discord.clientSecret ?? env.DISCORD_CLIENT_SECRET ?? '',
      botToken: sim?.discord.botToken ?? env.DISCORD_BOT_TOKEN ?? '',
      apiUrl: sim ? `${sim.url}/api` : env.DISCORD_API_URL,
      webUrl: sim ? sim.url : env.DISCORD_WEB_URL,
      cdnUrl: sim ? `${sim.url}/cdn` : env.DISCORD_CDN_URL,
      linkedRolesEnabled: env.LINKED_ROLES_ENABLED ?? Boolean(sim),
      shards: {
        count: env.SHARD_COUNT,
        ids: env.SHARD_IDS?.split(',').map(Number),
        perProcess: env.SHARDS_PER_PROCESS,
      },
    },
    vrchat: {
      username: sim?.vrchat.username ?? env.VRCHAT_USERNAME ?? '',
      password: sim?.vrchat.password ?? env.VRCHAT_PASSWORD ?? '',
      totpSecret: sim?.vrchat.totpSecret ?? env.VRCHAT_TOTP_SECRET ?? '',
      apiUrl: sim ? `${sim.url}/api/1` : env.VRCHAT_API_URL,
      webUrl: sim ? sim.url : env.VRCHAT_WEB_URL,
      pipelineUrl: sim ? `${sim.url.replace(/^http/, 'ws')}/vrchat/pipeline` : env.VRCHAT_PIPELINE_URL,
      contact: env.VRCHAT_CONTACT,
      timeScale: env.VRCHAT_TIME_SCALE,
      localAddress: env.VRCHAT_LOCAL_ADDRESS,
      moreAccounts,
    },
    worldImages: {
      maxBytes: env.WORLD_IMAGE_MAX_BYTES,
      maxPixels: env.WORLD_IMAGE_MAX_PIXELS,
      maxPerGuild: env.WORLD_IMAGE_MAX_PER_GUILD,
    },
  };
}
