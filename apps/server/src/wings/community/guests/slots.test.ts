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

  it('ignores entries without a main role, a guest role or a count', () => {
    const incomplete = [
      { id: 'd', mainRoleId: null, guestRoleId: 'guest', count: 4 },
      { id: 'e', mainRoleId: 'member', guestRoleId: null, count: 4 },
      { id: 'f', mainRoleId: 'member', guestRoleId: 'guest', count: 0 },
      { id: 'g', mainRoleId: null, guestRoleId: null, count: 0 },
    ];
    expect(heldEntries([...entries, ...incomplete], ['member'])).toEqual([]);
    expect(heldEntries([...entries, ...incomplete], ['staff', 'member']).map((e) => e.id)).toEqual(['c']);
  });

  it('drops the newest guests beyond the remaining slots', () => {
    const g = (id: string, guestRoleId = 'guest') => ({ id, guestRoleId });
    const held = heldEntries(entries, ['supporter']);
    expect(guestsOverLimit([g('g1'), g('g2'), g('g3')], held)).toEqual([g('g3')]);
    expect(guestsOverLimit([g('g1')], [])).toEqual([g('g1')]);
    expect(guestsOverLimit([g('g1')], heldEntries(entries, ['vip']))).toEqual([]);
  });

  it('counts the slots of each guest role apart, and drops guests of a role no held entry gives', () => {
    const g = (id: string, guestRoleId: string) => ({ id, guestRoleId });
    const held = heldEntries(entries, ['supporter', 'staff']);
    const list = [g('s1', 'staff-guest'), g('g1', 'guest'), g('s2', 'staff-guest'), g('old', 'retired')];
    expect(guestsOverLimit(list, held)).toEqual([g('s2', 'staff-guest'), g('old', 'retired')]);
  });
});
