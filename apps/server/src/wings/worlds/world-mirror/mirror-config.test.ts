import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../../env.js';
import { resolveConfig, type SimulatorEndpoints } from '../../../kernel/config.js';
import { mirrorBaseUrl } from './mirror-url.js';

const KEY = { SECRET_KEY: 'k'.repeat(32), DATA_DIR: '/srv/vrclink' };
const sim = {
  url: 'http://127.0.0.1:4010',
  discord: { clientId: 'c', clientSecret: 's', botToken: 't' },
  vrchat: { username: 'u', password: 'p', totpSecret: 'x' },
  adminDiscordUserId: '1',
} satisfies SimulatorEndpoints;
const ORIGIN = 'https://vrclink.example';

describe('world mirror configuration', () => {
  it('mirrors to a bare repository under DATA_DIR in demo mode and serves it at <origin>/mirror', () => {
    const config = resolveConfig(parseEnv(KEY), sim);
    expect(config.worldMirror).toEqual({
      remote: resolve('/srv/vrclink/world-mirror.git'),
      branch: 'main',
      sshKeyFile: null,
      dir: resolve('/srv/vrclink/world-mirror'),
      servedLocally: true,
    });
    expect(mirrorBaseUrl(config, ORIGIN)).toBe(`${ORIGIN}/mirror`);
  });

  it('has no mirror and no Trusted URL outside demo mode without WORLD_MIRROR_REMOTE', () => {
    const config = resolveConfig(parseEnv(KEY));
    expect(config.worldMirror.remote).toBeNull();
    expect(mirrorBaseUrl(config, ORIGIN)).toBeNull();
  });

  it('pushes to WORLD_MIRROR_REMOTE, read at its GitHub Pages site unless WORLD_MIRROR_URL says otherwise', () => {
    const remote = 'https://x-access-token:tok@github.com/owner/mirror.git';
    const config = resolveConfig(
      parseEnv({ ...KEY, WORLD_MIRROR_REMOTE: remote, WORLD_MIRROR_BRANCH: 'pages' }),
    );
    expect(config.worldMirror).toMatchObject({ remote, branch: 'pages', servedLocally: false });
    expect(mirrorBaseUrl(config, ORIGIN)).toBe('https://owner.github.io/mirror');
    const custom = resolveConfig(
      parseEnv({ ...KEY, WORLD_MIRROR_REMOTE: remote, WORLD_MIRROR_URL: 'https://worlds.example/' }),
    );
    expect(mirrorBaseUrl(custom, ORIGIN)).toBe('https://worlds.example');
    // A remote given in demo mode is used as it is, and not served here.
    expect(
      resolveConfig(parseEnv({ ...KEY, WORLD_MIRROR_REMOTE: remote }), sim).worldMirror.servedLocally,
    ).toBe(false);
  });

  it('refuses a branch name git would not accept', () => {
    expect(() => parseEnv({ ...KEY, WORLD_MIRROR_BRANCH: 'main; rm -rf /' })).toThrow(
      /WORLD_MIRROR_BRANCH: must be a branch name/,
    );
  });
});
