import { describe, expect, it } from 'vitest';
import type { ActiveSession } from './session.service.js';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.js';

const session = (userId: string, tokenHash: string) =>
  ({ user: { id: userId }, kind: 'web', tokenHash }) as unknown as ActiveSession;
const farFuture = new Date(Date.now() + 24 * 60 * 60 * 1000);

describe('the session cache', () => {
  it('answers a stored session until its TTL or the session’s own expiry, whichever is sooner', () => {
    const cache = new SessionCache();
    const now = 1_000_000;
    cache.set(session('u1', 'h1'), farFuture, cache.begin(), now);
    expect(cache.get('h1', now + SESSION_CACHE_TTL_MS - 1)?.user.id).toBe('u1');
    expect(cache.get('h1', now + SESSION_CACHE_TTL_MS)).toBeUndefined();
    cache.set(session('u2', 'h2'), new Date(now + 100), cache.begin(), now);
    expect(cache.get('h2', now + 100)).toBeUndefined();
  });

  it('forgets one token, every session of a user, or everything', () => {
    const cache = new SessionCache();
    for (const [u, h] of [
      ['u1', 'a'],
      ['u1', 'b'],
      ['u2', 'c'],
      ['u3', 'd'],
    ])
      cache.set(session(u!, h!), farFuture, cache.begin());
    cache.forget('token:a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    cache.forget('user:u1');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
    cache.forget('all');
    expect(cache.get('d')).toBeUndefined();
  });

  it('does not store what a lookup read before a logout was forgotten (it may be the deleted session)', () => {
    const cache = new SessionCache();
    const startedAt = cache.begin();
    cache.forget('user:u1');
    cache.set(session('u1', 'h1'), farFuture, startedAt);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('stores and answers nothing while invalidations could be missed', () => {
    const cache = new SessionCache();
    cache.set(session('u1', 'h1'), farFuture, cache.begin());
    cache.enabled = false;
    expect(cache.get('h1')).toBeUndefined();
    cache.set(session('u1', 'h1'), farFuture, cache.begin());
    cache.enabled = true;
    expect(cache.get('h1')).toBeUndefined();
  });
});
