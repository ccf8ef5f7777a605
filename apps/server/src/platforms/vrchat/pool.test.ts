import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { VrchatPlatform } from './platform.js';
import { createVrchatPool } from './pool.js';
import type { VrchatState, VrchatStatus } from './status.js';

/**
 * A stand-in account that answers with its own name, so the test sees which account a call reached. Its state
 * can be changed, and `failing` makes every call tied to no group throw.
 */
function fakeAccount(name: string, status: VrchatStatus = 'ok') {
  const calls: string[] = [];
  const me = {
    account: name,
    calls,
    state: { status, since: '2026-01-01T00:00:00.000Z' } as VrchatState,
    failing: false,
    platform: undefined as unknown as VrchatPlatform,
  };
  const answer =
    (method: string) =>
    async (...args: unknown[]) => {
      calls.push(`${method} ${args.join(' ')}`.trim());
      if (me.failing) throw new Error(`${name} failed`);
      return name;
    };
  me.platform = new Proxy(
    {
      state: () => ({ ...me.state, lastError: me.state.status === 'ok' ? undefined : 'no' }),
      start: async () => ({ status, since: '' }),
      close: async () => {},
      self: async () => ({ userId: `usr_${name}`, displayName: name }),
      currentUserId: async () => `usr_${name}`,
    } as Record<string, unknown>,
    { get: (target, key: string) => target[key] ?? answer(key) },
  ) as unknown as VrchatPlatform;
  return me;
}

const searches = async (pool: ReturnType<typeof createVrchatPool>, n: number) => {
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await pool.searchUsers('x'));
  return answers;
};

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

  it('spreads calls tied to no group over the logged-in accounts in turn, trying one in trouble once a minute', async () => {
    // bot-3's trouble began long ago: it is tried once (and answers), then waits a minute for its next try.
    expect(await searches(pool, 5)).toEqual(['bot-1', 'bot-2', 'bot-3', 'bot-1', 'bot-2']);
    expect(await searches(pool, 2)).toEqual(['bot-1', 'bot-2']);
  });

  it('reports the first account in trouble, by name, and refuses an account that is not configured', async () => {
    expect(pool.state()).toMatchObject({ status: 'needs_2fa', lastError: 'Account bot-3: no' });
    expect(pool.accountStates().map((s) => s.state.status)).toEqual(['ok', 'ok', 'needs_2fa']);
    expect(() => pool.forAccount('bot-9')).toThrow('The VRChat account bot-9 is not configured.');
    expect(pool.accounts()).toEqual(['bot-1', 'bot-2', 'bot-3']);
  });
});

describe('VRChat account pool, accounts whose trouble passes', () => {
  it('gives an account its turn again once its 429 pause is over, and none while it runs', async () => {
    const one = fakeAccount('bot-1');
    const two = fakeAccount('bot-2', 'rate_limited');
    two.state = {
      ...two.state,
      since: new Date().toISOString(),
      rateLimitedUntil: new Date(Date.now() + 60_000).toISOString(),
    };
    const pool = createVrchatPool({ accounts: [one, two], groupAccount: async () => null, log });
    expect(await searches(pool, 3)).toEqual(['bot-1', 'bot-1', 'bot-1']);
    two.state = { ...two.state, rateLimitedUntil: new Date(Date.now() - 1).toISOString() };
    expect(await searches(pool, 2)).toEqual(['bot-2', 'bot-1']);
  });

  it('gives an account that is not logged in yet its turn (the call logs it in)', async () => {
    const one = fakeAccount('bot-1');
    const two = fakeAccount('bot-2', 'logged_out');
    two.state = { ...two.state, since: new Date().toISOString() };
    const pool = createVrchatPool({ accounts: [one, two], groupAccount: async () => null, log });
    expect(await searches(pool, 4)).toEqual(['bot-1', 'bot-2', 'bot-1', 'bot-2']);
  });

  it('answers from a logged-in account when the account tried fails, and from the first when none is logged in', async () => {
    const one = fakeAccount('bot-1', 'unreachable');
    const two = fakeAccount('bot-2');
    const pool = createVrchatPool({ accounts: [one, two], groupAccount: async () => null, log });
    one.failing = true;
    expect(await pool.getUser('usr_x')).toBe('bot-2');
    expect(one.calls).toEqual(['getUser usr_x']);
    // Tried a moment ago: it waits its minute, and the logged-in account answers alone.
    expect(await searches(pool, 2)).toEqual(['bot-2', 'bot-2']);
    two.state = { status: 'unreachable', since: new Date().toISOString() };
    await expect(pool.searchUsers('x')).rejects.toThrow('bot-1 failed');
  });
});
