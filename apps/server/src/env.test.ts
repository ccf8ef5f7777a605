import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { isDemoMode, parseEnv } from './env.js';

const real = {
  DISCORD_CLIENT_ID: '123',
  DISCORD_CLIENT_SECRET: 'secret',
  DISCORD_BOT_TOKEN: 'bot',
  VRCHAT_USERNAME: 'bot',
  VRCHAT_PASSWORD: 'pw',
  VRCHAT_TOTP_SECRET: 'JBSWY3DPEHPK3PXP',
  SECRET_KEY: 'k'.repeat(32),
};

describe('configuration', () => {
  it('runs in demo mode with the documented defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(isDemoMode(env)).toBe(true);
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      SIMULATOR_PORT: 4010,
      LINKED_ROLES_ENABLED: false,
      DISCORD_API_URL: 'https://discord.com/api',
      VRCHAT_API_URL: 'https://api.vrchat.cloud/api/1',
    });
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

  it('refuses some credentials without the others, naming the missing ones', () => {
    expect(() => parseEnv({ DISCORD_CLIENT_ID: '123', SECRET_KEY: 'k'.repeat(32) })).toThrow(
      /missing: DISCORD_CLIENT_SECRET, DISCORD_BOT_TOKEN, VRCHAT_USERNAME, VRCHAT_PASSWORD, VRCHAT_TOTP_SECRET/,
    );
  });

  it('requires SECRET_KEY in real mode', () => {
    const { SECRET_KEY: _unused, ...withoutKey } = real;
    expect(() => parseEnv(withoutKey)).toThrow(/SECRET_KEY: required in real mode/);
  });

  it('lists every bad variable at once', () => {
    expect(() => parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SECRET_KEY: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: must be a postgres:\/\/ URL[\s\S]*SECRET_KEY: must be at least 32 characters/,
    );
  });

  it('stops the server at start with the list of problems', () => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { PATH: process.env.PATH, DISCORD_CLIENT_ID: '123', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('missing: DISCORD_CLIENT_SECRET');
  });
});
