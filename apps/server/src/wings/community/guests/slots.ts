/** Guest-slot arithmetic (pure): slots come from the guest-role entries whose main role the host holds. */
export interface GuestRoleEntry {
  id: string;
  /** null while an admin is still setting the entry up (a new row starts empty). */
  mainRoleId: string | null;
  guestRoleId: string | null;
  count: number;
}

/** An entry that gives slots: both roles chosen and a count above 0. */
export type CompleteEntry<T extends GuestRoleEntry = GuestRoleEntry> = T & {
  mainRoleId: string;
  guestRoleId: string;
};

const isComplete = <T extends GuestRoleEntry>(e: T): e is CompleteEntry<T> =>
  e.mainRoleId !== null && e.guestRoleId !== null && e.count > 0;

/** The entries that give this host slots: complete (both roles, count above 0) and with a main role held. */
export function heldEntries<T extends GuestRoleEntry>(
  entries: T[],
  hostRoles: readonly string[],
): CompleteEntry<T>[] {
  return entries.filter(isComplete).filter((e) => hostRoles.includes(e.mainRoleId));
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
export function entryWithRoom<T extends CompleteEntry>(
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
 * Which guests must go when a host's slots shrink: for each guest role, the newest guests beyond the slots
 * the held entries give with that role (all of them when no held entry gives it any more, e.g. after an
 * entry's guest role changed). Guests are given oldest first.
 */
export function guestsOverLimit<G extends { guestRoleId: string }>(
  guestsOldestFirst: G[],
  held: CompleteEntry[],
): G[] {
  const room = new Map<string, number>();
  for (const e of held) room.set(e.guestRoleId, (room.get(e.guestRoleId) ?? 0) + Math.max(0, e.count));
  return guestsOldestFirst.filter((g) => {
    const left = room.get(g.guestRoleId) ?? 0;
    room.set(g.guestRoleId, left - 1);
    return left <= 0;
  });
}

/**
 * The guests a host loses under these entries, as `reconcileHostGuests` removes them: the newest beyond
 * the held entries' slots per guest role; all of them when the host is no longer a member (null roles).
 */
export function hostExcessGuests<G extends { guestRoleId: string }>(
  entries: GuestRoleEntry[],
  hostRoles: readonly string[] | null,
  guestsOldestFirst: G[],
): G[] {
  return guestsOverLimit(guestsOldestFirst, hostRoles ? heldEntries(entries, hostRoles) : []);
}
