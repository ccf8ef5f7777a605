import { describe, expect, it } from 'vitest';
import { describeSyncActions } from './sync.js';

describe('describeSyncActions (the /sync answer)', () => {
  it('says when there is nothing to do', () => {
    expect(describeSyncActions(0, {})).toBe('nothing needs changing right now');
  });

  it('counts the actions by kind, in words', () => {
    expect(describeSyncActions(1, { invite: 1 })).toBe('1 action (1 group invite)');
    expect(describeSyncActions(5, { addDiscordRole: 3, remove: 2, acceptRequest: 0 })).toBe(
      '5 actions (3 Discord roles to give, 2 group removals)',
    );
  });
});
