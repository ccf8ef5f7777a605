import { afterAll, describe, expect, it } from 'vitest';
import { startDemoSimulator } from './demo.js';
import { parseEnv } from './env.js';
import { resolveConfig, vrchatAccountsOf } from './kernel/config.js';
import { callSimulatorControl } from './platforms/testing.js';

describe('demo mode: several VRChat bot accounts', () => {
  let close: (() => Promise<void>) | undefined;
  afterAll(() => close?.());

  it('serves groups with two bot accounts the simulator knows', async () => {
    const { sim, endpoints } = await startDemoSimulator(0);
    close = () => sim?.close() ?? Promise.resolve();
    const accounts = vrchatAccountsOf(
      resolveConfig(parseEnv({ SECRET_KEY: 'k'.repeat(32) }), endpoints).vrchat,
    );
    expect(accounts.map((a) => a.username)).toEqual(['vrclink-bot', 'vrclink-bot-2']);
    const { body } = await callSimulatorControl(endpoints.url, 'GET', '/vrchat/sessions');
    const known = (body as { accounts: { username: string }[] }).accounts.map(
      (a: { username: string }) => a.username,
    );
    for (const a of accounts) expect(known).toContain(a.username);
  });
});
