import { describe, expect, it } from 'vitest';
import { freeSlots, slotsLabel } from './freeSlots';

describe('freeSlots', () => {
  it('is the slots minus the guests', () => {
    expect(freeSlots(3, 1)).toBe(2);
    expect(freeSlots(3, 3)).toBe(0);
  });

  it('never goes below 0 when slots shrank under the guest count', () => {
    expect(freeSlots(1, 4)).toBe(0);
    expect(freeSlots(0, 0)).toBe(0);
  });

  it('formats the count as the spec shows it', () => {
    expect(slotsLabel(3, 1)).toBe('Used 1/3 (Free 2)');
    expect(slotsLabel(1, 2)).toBe('Used 2/1 (Free 0)');
  });
});
