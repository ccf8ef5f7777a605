/** Guest-slot arithmetic (pure): slots come from the guest-role entries whose main role the host holds. */
export interface GuestRoleEntry {
  id: string;
  mainRoleId: string;
  guestRoleId: string;
  count: number;
}

export function heldEntries<T extends GuestRoleEntry>(entries: T[], hostRoles: readonly string[]): T[] {
  return entries.filter((e) => hostRoles.includes(e.mainRoleId));
}

export function slotsCount(entries: GuestRoleEntry[]): number {
  return entries.reduce((sum, e) => sum + Math.max(0, e.count), 0);
}

/** Free slots = slots minus guests, never below 0. */
export function freeSlots(slots: number, guestCount: number): number {
  return Math.max(0, slots - guestCount);
}

/**
 * The entry a new guest is counted against: the first held entry whose own slots are not used up,
 * given how many current guests hold each guest role.
 */
export function entryWithRoom<T extends GuestRoleEntry>(
  entries: T[],
  guestsByRole: Map<string, number>,
): T | null {
  const used = new Map(guestsByRole);
  for (const e of entries) {
    const taken = used.get(e.guestRoleId) ?? 0;
    if (taken < e.count) return e;
    used.set(e.guestRoleId, taken - e.count);
  }
  return null;
}

/**
 * Which guests must go when a host's slots shrink: the newest ones beyond the remaining slots.
 * Guests are given oldest first.
 */
export function guestsOverLimit<G>(guestsOldestFirst: G[], slots: number): G[] {
  return guestsOldestFirst.slice(Math.max(0, slots));
}
