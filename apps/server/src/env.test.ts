import { describe, expect, it } from 'vitest';
import { runMainToExit } from '../test/server-process.js';
import { isDemoMode, listenHost, parseEnv } from './env.js';
import { listeningUrl, resolveConfig, vrchatAccountsOf } from './kernel/config.js';

const real = {
  DISCORD_CLIENT_ID: '123',
  DISCORD_CLIENT_SECRET: 'secret',
  DISCORD_BOT_TOKEN: 'bot',
  VRCHAT_USERNAME: 'bot',
  VRCHAT_PASSWORD: 'pw',
  VRCHAT_TOTP_SECRET: 'JBSWY3DPEHPK3PXP',
  SECRET_KEY: 'k'.repeat(32),
  PUBLIC_URL: 'https://vrclink.example/',
};

describe('configuration', () => {
  it.each([
    [undefined, false],
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.1, 192.168.0.0/16, loopback, ::1/128', ['10.0.0.1', '192.168.0.0/16', 'loopback', '::1/128']],
  ])(
    'reads TRUST_PROXY=%s as Fastify trustProxy %j (default: trust no forwarded headers)',
    (value, expected) => {
      const env = parseEnv(value === undefined ? {} : { TRUST_PROXY: value });
      expect(env.TRUST_PROXY).toEqual(expected);
      expect(resolveConfig(env).trustProxy).toEqual(expected);
    },
  );

  it.each(['yes', '10.0.0.1/33', 'evil.example'])('refuses TRUST_PROXY=%s with a sentence', (value) => {
    expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(
      'TRUST_PROXY: must be true, false, a hop count or a comma-separated list of addresses/CIDRs',
    );
  });

  it('reads VRCHAT_ACCOUNTS as the bot accounts after the first, and refuses a bad list', () => {
    const first = {
      DISCORD_CLIENT_ID: '1',
      DISCORD_CLIENT_SECRET: 's',
      DISCORD_BOT_TOKEN: 't',
      PUBLIC_URL: 'https://vrclink.example',
      SECRET_KEY: 'k'.repeat(32),
      VRCHAT_USERNAME: 'bot-1',
      VRCHAT_PASSWORD: 'p1',
      VRCHAT_TOTP_SECRET: 'S1',
    };
    const more = [
      { username: 'bot-2', password: 'p2', totpSecret: 'S2' },
      { username: 'bot-3', password: 'p3', totpSecret: 'S3', localAddress: '127.0.0.3' },
    ];
    const config = resolveConfig(
      parseEnv({ ...first, VRCHAT_LOCAL_ADDRESS: '127.0.0.2', VRCHAT_ACCOUNTS: JSON.stringify(more) }),
    );
    expect(vrchatAccountsOf(config.vrchat)).toEqual([
      { username: 'bot-1', password: 'p1', totpSecret: 'S1', localAddress: '127.0.0.2' },
      ...more,
    ]);
    expect(vrchatAccountsOf(resolveConfig(parseEnv(first)).vrchat)).toHaveLength(1);
    expect(() => parseEnv({ ...first, VRCHAT_ACCOUNTS: '{not json' })).toThrow(
      /VRCHAT_ACCOUNTS: must be a JSON list of accounts/,
    );
    expect(() =>
      parseEnv({ ...first, VRCHAT_ACCOUNTS: JSON.stringify([{ username: 'bot-2', password: 'p2' }]) }),
    ).toThrow(/VRCHAT_ACCOUNTS: account 1, totpSecret: must be text/);
    expect(() =>
      parseEnv({ ...first, VRCHAT_ACCOUNTS: JSON.stringify([{ ...more[0], username: 'BOT-1' }]) }),
    ).toThrow(/VRCHAT_ACCOUNTS: names an account twice/);
    expect(() => parseEnv({ SECRET_KEY: 'k'.repeat(32), VRCHAT_ACCOUNTS: JSON.stringify(more) })).toThrow(
      /VRCHAT_ACCOUNTS: lists the accounts after the first/,
    );
  });

  it('reads VRCHAT_LOCAL_ADDRESS as an IP address (unset: the system chooses) and refuses anything else', () => {
    expect(resolveConfig(parseEnv({})).vrchat.localAddress).toBeUndefined();
    expect(resolveConfig(parseEnv({ VRCHAT_LOCAL_ADDRESS: '127.0.0.2' })).vrchat.localAddress).toBe(
      '127.0.0.2',
    );
    expect(parseEnv({ VRCHAT_LOCAL_ADDRESS: '2001:db8::7' }).VRCHAT_LOCAL_ADDRESS).toBe('2001:db8::7');
    expect(() => parseEnv({ VRCHAT_LOCAL_ADDRESS: 'eth0' })).toThrow(
      /VRCHAT_LOCAL_ADDRESS: must be an IP address of this machine \(IPv4 or IPv6\)/,
    );
  });

  it('runs in demo mode with the documented defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(isDemoMode(env)).toBe(true);
    expect(listenHost(env)).toBe('127.0.0.1');
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      SIMULATOR_PORT: 4010,
      DISCORD_API_URL: 'https://discord.com/api',
      VRCHAT_API_URL: 'https://api.vrchat.cloud/api/1',
    });
  });

  it('listens on loopback only in demo mode and on every interface in real mode, unless HOST says', () => {
    expect(listenHost(parseEnv({ HOST: '' }))).toBe('127.0.0.1');
    expect(listenHost(parseEnv(real))).toBe('0.0.0.0');
    expect(listenHost(parseEnv({ HOST: '0.0.0.0' }))).toBe('0.0.0.0');
    expect(listenHost(parseEnv({ ...real, HOST: '10.0.0.5' }))).toBe('10.0.0.5');
  });

  it.each([
    ['127.0.0.1', 'http://127.0.0.1:3000'],
    ['localhost', 'http://localhost:3000'],
    ['0.0.0.0', 'http://127.0.0.1:3000'],
    ['::', 'http://127.0.0.1:3000'],
    ['::1', 'http://[::1]:3000'],
  ])('prints and links to one address when listening on %s: %s', (host, url) => {
    expect(listeningUrl(host, 3000)).toBe(url);
    expect(resolveConfig(parseEnv({ HOST: host })).publicUrl).toBe(url);
  });

  it('reads LOG_FORMAT as pretty or json, unset meaning: decide by the terminal', () => {
    expect(parseEnv({}).LOG_FORMAT).toBeUndefined();
    expect(parseEnv({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => parseEnv({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT');
  });

  it('switches to real mode with all six credentials and the secret key, using the real addresses', () => {
    const env = parseEnv(real);
    expect(isDemoMode(env)).toBe(false);
    const config = resolveConfig(env);
    expect(config.demoMode).toBe(false);
    expect(config.discord.apiUrl).toBe('https://discord.com/api');
    expect(config.vrchat.apiUrl).toBe('https://api.vrchat.cloud/api/1');
    expect(config.vrchat.totpSecret).toBe('JBSWY3DPEHPK3PXP');
  });

  it('turns Linked Roles on by default in demo mode only; LINKED_ROLES_ENABLED decides when set', () => {
    const sim = {
      url: 'http://127.0.0.1:4010',
      discord: { clientId: '1', clientSecret: 's', botToken: 'b' },
      vrchat: { username: 'u', password: 'p', totpSecret: 'JBSWY3DPEHPK3PXP' },
      adminDiscordUserId: '2',
    };
    expect(resolveConfig(parseEnv({}), sim).discord.linkedRolesEnabled).toBe(true);
    expect(resolveConfig(parseEnv({ LINKED_ROLES_ENABLED: 'false' }), sim).discord.linkedRolesEnabled).toBe(
      false,
    );
    expect(resolveConfig(parseEnv(real)).discord.linkedRolesEnabled).toBe(false);
    expect(resolveConfig(parseEnv({ ...real, LINKED_ROLES_ENABLED: '1' })).discord.linkedRolesEnabled).toBe(
      true,
    );
  });

  it('refuses some credentials without the others, naming the missing ones', () => {
    expect(() => parseEnv({ DISCORD_CLIENT_ID: '123', SECRET_KEY: 'k'.repeat(32) })).toThrow(
      /missing: DISCORD_CLIENT_SECRET, DISCORD_BOT_TOKEN, VRCHAT_USERNAME, VRCHAT_PASSWORD, VRCHAT_TOTP_SECRET/,
    );
  });

  it('requires PUBLIC_URL in real mode, with a sentence saying why', () => {
    const { PUBLIC_URL: _unused, ...withoutUrl } = real;
    expect(() => parseEnv(withoutUrl)).toThrow(
      'PUBLIC_URL: required in real mode (the address users reach the site at; the OAuth redirect address and the package listing are built from it, never from the request)',
    );
    expect(resolveConfig(parseEnv(real)).publicUrl).toBe('https://vrclink.example');
    expect(() => parseEnv({ PUBLIC_URL: 'vrclink.example' })).toThrow(/PUBLIC_URL/);
  });

  it('builds links from the address the server prints in demo mode without PUBLIC_URL', () => {
    expect(resolveConfig(parseEnv({ PORT: '3456' })).publicUrl).toBe('http://127.0.0.1:3456');
    expect(resolveConfig(parseEnv({ PUBLIC_URL: 'http://demo.example:8080' })).publicUrl).toBe(
      'http://demo.example:8080',
    );
  });

  it('requires SECRET_KEY in real mode', () => {
    const { SECRET_KEY: _unused, ...withoutKey } = real;
    expect(() => parseEnv(withoutKey)).toThrow(/SECRET_KEY: required in real mode/);
  });

  it('runs every role in one process by default and reads the process roles, instance name and shards', () => {
    const config = resolveConfig(parseEnv({}));
    expect([...config.process.roles].sort()).toEqual(['api', 'bot', 'worker']);
    expect(config.process.container).toMatch(new RegExp(`-${process.pid}$`));
    // Nothing configured: Discord's recommended count, and this process takes every free shard.
    expect(config.discord.shards).toEqual({ count: undefined, ids: undefined, perProcess: undefined });
    const split = resolveConfig(
      parseEnv({
        PROCESS_ROLES: 'worker, bot',
        INSTANCE_NAME: 'worker-1',
        SHARD_COUNT: '4',
        SHARD_IDS: '1,3',
      }),
    );
    expect([...split.process.roles].sort()).toEqual(['bot', 'worker']);
    expect(split.process.container).toBe('worker-1');
    expect(split.discord.shards).toEqual({ count: 4, ids: [1, 3], perProcess: undefined });
    expect(resolveConfig(parseEnv({ SHARD_COUNT: '2', SHARDS_PER_PROCESS: '1' })).discord.shards).toEqual({
      count: 2,
      ids: undefined,
      perProcess: 1,
    });
  });

  it('refuses unknown process roles and shard ids outside the shard count', () => {
    expect(() => parseEnv({ PROCESS_ROLES: 'api,web' })).toThrow(/PROCESS_ROLES/);
    expect(() => parseEnv({ PROCESS_ROLES: ' ' })).toThrow(/PROCESS_ROLES/);
    expect(() => parseEnv({ SHARD_COUNT: '2', SHARD_IDS: '0,2' })).toThrow(/SHARD_IDS: every shard id/);
    expect(() => parseEnv({ SHARD_IDS: '0' })).toThrow(/SHARD_IDS: needs SHARD_COUNT/);
  });

  it("says what each bad variable must be in a sentence, never the validator's words nor the value", () => {
    const said = (source: Record<string, string>) => {
      try {
        parseEnv(source);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'eighty' }, 'PORT: must be a number'],
      [{ PORT: '80.5' }, 'PORT: must be a whole number'],
      [{ PORT: '70000' }, 'PORT: must be at most 65535'],
      [{ RATE_LIMIT_USER: '-1' }, 'RATE_LIMIT_USER: must be at least 0'],
      [{ VRCHAT_TIME_SCALE: '0' }, 'VRCHAT_TIME_SCALE: must be more than 0'],
      [{ NODE_ENV: 'prod' }, 'NODE_ENV: must be one of development, production, test'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent'],
      [{ PUBLIC_URL: 'vrclink dot example' }, 'PUBLIC_URL: must be a URL (https://…)'],
      [{ CONTACT_EMAIL: 'nobody' }, 'CONTACT_EMAIL: must be an e-mail address'],
      [{ SECRET_KEY: 'hunter2' }, 'SECRET_KEY: must be at least 32 characters'],
      [
        { VRCHAT_ACCOUNTS: JSON.stringify([{ username: 'b', password: 'p', totpSecret: 'S', extra: 1 }]) },
        'VRCHAT_ACCOUNTS: account 1: has a field this setting does not know: extra',
      ],
      [
        {
          VRCHAT_ACCOUNTS: JSON.stringify([
            { username: 'b', password: 'p', totpSecret: 'S', localAddress: 'x' },
          ]),
        },
        'VRCHAT_ACCOUNTS: account 1, localAddress: must be an IP address (IPv4 or IPv6)',
      ],
    ];
    for (const [source, sentence] of cases) {
      const message = said(source);
      expect(message, JSON.stringify(source)).toContain(`  ${sentence}`);
      expect(message).not.toMatch(/Invalid input|expected|received|Too (big|small)|Invalid option|<=|>=/);
      for (const value of Object.values(source))
        if (!sentence.includes(value)) expect(message).not.toContain(value);
    }
  });

  it('lists every bad variable at once', () => {
    expect(() => parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SECRET_KEY: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: must be a postgres:\/\/ URL[\s\S]*SECRET_KEY: must be at least 32 characters/,
    );
  });

  // A generous limit: the child compiles the server with tsx, which took 36 s on a CPU-loaded machine.
  it('stops the server at start with the list of problems', { timeout: 120_000 }, async () => {
    const run = await runMainToExit({
      PATH: process.env.PATH,
      DISCORD_CLIENT_ID: '123',
      LOG_LEVEL: 'silent',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('missing: DISCORD_CLIENT_SECRET');
  });
});
