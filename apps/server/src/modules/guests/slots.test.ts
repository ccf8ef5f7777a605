import { describe, expect, it } from 'vitest';
import { entryWithRoom, freeSlots, guestsOverLimit, heldEntries, slotsCount } from './slots.js';

const entries = [
  { id: 'a', mainRoleId: 'supporter', guestRoleId: 'guest', count: 2 },
  { id: 'b', mainRoleId: 'vip', guestRoleId: 'guest', count: 3 },
  { id: 'c', mainRoleId: 'staff', guestRoleId: 'staff-guest', count: 1 },
];

describe('guest slots', () => {
  it('sums count over the entries whose main role the host holds', () => {
    expect(slotsCount(heldEntries(entries, ['supporter', 'vip']))).toBe(5);
    expect(slotsCount(heldEntries(entries, ['staff']))).toBe(1);
    expect(slotsCount(heldEntries(entries, ['member']))).toBe(0);
  });

  it('never reports negative free slots', () => {
    expect(freeSlots(2, 1)).toBe(1);
    expect(freeSlots(2, 5)).toBe(0);
  });

  it('counts a new guest against the first held entry with room', () => {
    const held = heldEntries(entries, ['supporter', 'staff']);
    expect(entryWithRoom(held, new Map())?.id).toBe('a');
    expect(entryWithRoom(held, new Map([['guest', 2]]))?.id).toBe('c');
    expect(
      entryWithRoom(
        held,
        new Map([
          ['guest', 2],
          ['staff-guest', 1],
        ]),
      ),
    ).toBeNull();
  });

  it('drops the newest guests beyond the remaining slots', () => {
    expect(guestsOverLimit(['g1', 'g2', 'g3'], 1)).toEqual(['g2', 'g3']);
    expect(guestsOverLimit(['g1'], 0)).toEqual(['g1']);
    expect(guestsOverLimit(['g1'], 4)).toEqual([]);
  });
});
