import { describe, expect, it } from 'vitest';
import {
  actionLabel,
  countPhrases,
  discordOnly,
  isGroupAction,
  queuedStatus,
  reasonLabel,
  syncQueuedMessage,
  timeAgo,
} from './syncWords';

const action = (kind: string) => ({
  kind: kind as 'invite',
  targetName: kind,
  discordUserId: null,
  vrcUserId: null,
  roleName: null,
  reason: 'Membership',
});

describe('countPhrases', () => {
  it('words each non-zero count in a fixed order, singular for one', () => {
    expect(countPhrases({ addDiscordRole: 2, remove: 1, invite: 3, acceptRequest: 0 })).toEqual([
      '3 invites',
      '1 removal',
      '2 Discord roles given',
    ]);
  });

  it('keeps a kind it does not know, as the server named it', () => {
    expect(countPhrases({ banMember: 2 })).toEqual(['2 banMember']);
  });
});

describe('discordOnly', () => {
  it('drops the group actions and their counts', () => {
    const kept = discordOnly({ invite: 1, removeDiscordRole: 1 }, [
      action('invite'),
      action('removeDiscordRole'),
    ]);
    expect(kept.counts).toEqual({ removeDiscordRole: 1 });
    expect(kept.actions.map((a) => a.kind)).toEqual(['removeDiscordRole']);
  });
});

describe('labels', () => {
  it('names actions and reasons in words, falling back to the raw value', () => {
    expect(actionLabel('acceptRequest')).toBe('Accept join request');
    expect(reasonLabel('AutoRemove')).toBe('Auto Remove');
    expect(reasonLabel('SomethingNew')).toBe('SomethingNew');
    expect(isGroupAction('addGroupRole')).toBe(true);
    expect(isGroupAction('addDiscordRole')).toBe(false);
  });
});

describe('timeAgo', () => {
  const now = Date.parse('2025-01-01T12:00:00Z');
  it.each([
    ['2025-01-01T11:59:30Z', 'just now'],
    ['2025-01-01T11:55:00Z', '5 minutes ago'],
    ['2025-01-01T10:00:00Z', '2 hours ago'],
    ['2024-12-30T12:00:00Z', '2 days ago'],
  ])('%s reads %s', (at, text) => expect(timeAgo(at, now)).toBe(text));
});

describe('the sync queue in words', () => {
  const place = (ahead: number, running: number, estimatedSeconds: number) => ({
    ahead,
    running,
    estimatedSeconds,
  });

  it('names the wait and the servers ahead', () => {
    expect(queuedStatus(place(21, 1, 195))).toBe('Queued: starts in about 3 minutes, 21 servers ahead.');
    expect(queuedStatus(place(1, 1, 45))).toBe('Queued: starts in about 45 seconds, 1 server ahead.');
    expect(queuedStatus(place(0, 1, 15))).toBe(
      'Queued: starts in about 15 seconds, after the sync running now.',
    );
    expect(queuedStatus(place(0, 0, 2))).toBe('Queued: starts in a few seconds, next in line.');
    expect(queuedStatus(null)).toBe('A sync is queued and starts shortly…');
  });

  it("answers Sync now from the queue, and with the server's own running sync first", () => {
    expect(syncQueuedMessage({ queued: true, queue: place(51, 2, 48 * 60) })).toBe(
      'Sync queued: starts in about 48 minutes, 51 servers ahead.',
    );
    expect(syncQueuedMessage({ queued: false, running: true, queue: place(3, 2, 120) })).toBe(
      'A sync is already queued. A sync of this server is running; the next starts when it ends: it starts in about 2 minutes, 3 servers ahead.',
    );
    const startsAt = new Date(Date.now() + 1000).toISOString();
    expect(syncQueuedMessage({ queued: true, startsAt })).toBe('Sync queued. It starts in a few seconds.');
  });
});
