import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { VrchatPlatform } from './platform.js';
import { createVrchatPool } from './pool.js';
import type { VrchatStatus } from './status.js';

/** A stand-in account that answers with its own name, so the test sees which account a call reached. */
function fakeAccount(name: string, status: VrchatStatus = 'ok') {
  const calls: string[] = [];
  const answer =
    (method: string) =>
    async (...args: unknown[]) => {
      calls.push(`${method} ${args.join(' ')}`.trim());
      return name;
    };
  const platform = new Proxy(
    {
      state: () => ({
        status,
        since: '2026-01-01T00:00:00.000Z',
        lastError: status === 'ok' ? undefined : 'no',
      }),
      start: async () => ({ status, since: '' }),
      close: async () => {},
      self: async () => ({ userId: `usr_${name}`, displayName: name }),
      currentUserId: async () => `usr_${name}`,
    } as Record<string, unknown>,
    { get: (target, key: string) => target[key] ?? answer(key) },
  ) as unknown as VrchatPlatform;
  return { account: name, platform, calls };
}

const log = pino({ level: 'silent' });

describe('VRChat account pool', () => {
  const one = fakeAccount('bot-1');
  const two = fakeAccount('bot-2');
  const three = fakeAccount('bot-3', 'needs_2fa');
  const stored: Record<string, string> = { grp_b: 'bot-2', grp_gone: 'bot-9' };
  const pool = createVrchatPool({
    accounts: [one, two, three],
    groupAccount: async (groupId) => stored[groupId] ?? null,
    log,
  });

  it("routes a group's calls to its stored account, the first when none is stored or it is gone", async () => {
    expect(await pool.getGroup('grp_b')).toBe('bot-2');
    expect(await pool.addGroupMemberRole('grp_b', 'usr_x', 'grol_y')).toBe('bot-2');
    expect(await pool.getGroupAuditLogs('grp_a')).toBe('bot-1');
    expect(await pool.inviteToGroup('grp_gone', 'usr_x')).toBe('bot-1');
    expect(two.calls).toEqual(['getGroup grp_b', 'addGroupMemberRole grp_b usr_x grol_y']);
    expect(await pool.currentUserId('grp_b')).toBe('usr_bot-2');
    expect(await pool.currentUserId()).toBe('usr_bot-1');
    expect(await pool.accountOf('grp_b')).toBe('bot-2');
    expect(await pool.accountProfile('BOT-2')).toEqual({
      account: 'bot-2',
      userId: 'usr_bot-2',
      displayName: 'bot-2',
    });
  });

  it('spreads calls tied to no group over the logged-in accounts in turn', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await pool.searchUsers('x'));
    expect(answers).toEqual(['bot-1', 'bot-2', 'bot-1', 'bot-2']);
  });

  it('reports the first account in trouble, by name, and refuses an account that is not configured', async () => {
    expect(pool.state()).toMatchObject({ status: 'needs_2fa', lastError: 'Account bot-3: no' });
    expect(pool.accountStates().map((s) => s.state.status)).toEqual(['ok', 'ok', 'needs_2fa']);
    expect(() => pool.forAccount('bot-9')).toThrow('The VRChat account bot-9 is not configured.');
    expect(pool.accounts()).toEqual(['bot-1', 'bot-2', 'bot-3']);
  });
});
