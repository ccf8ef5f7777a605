/** Free guest slots: the host's slots minus their guests, never below 0. */
export function freeSlots(slotsCount: number, guestCount: number): number {
  return Math.max(0, slotsCount - guestCount);
}

/** The spec's count text, e.g. 'Used 1/3 (Free 2)'. */
export function slotsLabel(slotsCount: number, guestCount: number): string {
  return `Used ${guestCount}/${slotsCount} (Free ${freeSlots(slotsCount, guestCount)})`;
}
