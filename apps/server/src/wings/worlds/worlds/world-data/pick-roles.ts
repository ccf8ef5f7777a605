/** A role that can be selected for a world; a lower `rank` number means a higher role. */
export interface RankedRole {
  id: string;
  name: string;
  rank: number;
}

/** A person (matched in worlds by VRChat display name) and the role ids they hold. */
export interface RoleHolder {
  name: string;
  roleIds: string[];
}

export interface EncodedRoles {
  /** Role name → sorted display names, keys in picker order (encode roles first, then always roles). */
  users: Record<string, string[]>;
  /** Role id → role name for every selected role that still exists. */
  roleMap: Record<string, string>;
}

/** Stable, locale-independent ordering for display-name lists. */
export const compareNames = (a: string, b: string) => a.localeCompare(b, 'en');

/**
 * Lists holders under the selected roles the way the world SDK expects: under Encode Roles a person appears
 * only under the highest selected role they hold, under Always Encode Roles under every one they hold.
 * Shared by the Discord path (rank = -position) and the VRChat group path (rank = order).
 */
export function encodeRoleUsers(
  selectedEncode: string[],
  selectedAlways: string[],
  roles: RankedRole[],
  holders: RoleHolder[],
): EncodedRoles {
  const rolesById = new Map(roles.map((role) => [role.id, role]));
  // Selected ids that no longer exist are skipped; a role selected twice counts once.
  const resolve = (ids: string[]) =>
    [...new Set(ids)].map((id) => rolesById.get(id)).filter((role): role is RankedRole => role !== undefined);
  const encode = resolve(selectedEncode);
  const always = resolve(selectedAlways);

  const roleMap = new Map<string, string>();
  const lists = new Map<string, Set<string>>();
  // Keys follow picker order, encode roles first; every selected role gets a key even if nobody holds it.
  for (const role of [...encode, ...always]) {
    roleMap.set(role.id, role.name);
    // Selected roles that share a name share one list (the first one's key position wins).
    if (!lists.has(role.name)) lists.set(role.name, new Set());
  }

  // The same display name appearing more than once (e.g. member and guest) is one person holding all roles.
  const held = new Map<string, Set<string>>();
  for (const holder of holders) {
    // A holder without a display name cannot be matched by a world, so it is left out.
    if (holder.name === '') continue;
    const ids = held.get(holder.name) ?? new Set<string>();
    for (const id of holder.roleIds) ids.add(id);
    held.set(holder.name, ids);
  }

  // Array.prototype.sort is stable: among equally ranked roles the earlier one in the picker wins.
  const encodeByRank = [...encode].sort((a, b) => a.rank - b.rank);
  for (const [name, ids] of held) {
    const highest = encodeByRank.find((role) => ids.has(role.id));
    if (highest) lists.get(highest.name)!.add(name);
    for (const role of always) if (ids.has(role.id)) lists.get(role.name)!.add(name);
  }

  // Object.fromEntries defines own properties, so a role named "__proto__" is just a key. Note: JS objects put
  // integer-like keys (e.g. a role named "2024") first, so such names cannot keep their picker position.
  return {
    users: Object.fromEntries([...lists].map(([role, names]) => [role, [...names].sort(compareNames)])),
    roleMap: Object.fromEntries(roleMap),
  };
}
