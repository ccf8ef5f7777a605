import { vrcError } from './errors.js';
import { stableId } from './ids.js';
import { bulkAddMembers, freshUser } from './mutations.js';
import { botPerms, modPerms } from './seed-groups.js';
import { botAccount } from './seed-users.js';
import type { JoinState, VrchatState, VrcMembership } from './state.js';

/**
 * Scale seeding: many groups at once (each with an owner, the usual roles and, optionally, a bot account
 * and bulk members) and more bot accounts. Silent like bulk-members: nothing is audited, the groups
 * predate any poller. Ids are hashes of the numbers, so runs are comparable.
 */

export const BULK_GROUPS_MAX = 5_000;
/** Members made by one bulk-groups call in all (membersPerGroup × count). */
export const BULK_GROUP_MEMBERS_MAX = 2_000_000;
export const BOT_ACCOUNTS_MAX = 100;

/** The roles of every bulk group, highest rank first (the seeded Hangout's ladder). */
const ROLES = [
  { key: 'owner', name: 'Owner', permissions: ['*'], management: true },
  { key: 'moderator', name: 'Moderator', permissions: modPerms, management: true },
  { key: 'bot', name: 'Bot', permissions: botPerms, management: true },
  { key: 'verified18', name: 'Verified 18+', permissions: ['group-instance-age-gated-create'] },
  { key: 'linked', name: 'Linked', permissions: ['group-instance-join'] },
  { key: 'eventHost', name: 'Event Host', permissions: ['group-instance-open-create'] },
] as const;

type RoleKey = (typeof ROLES)[number]['key'];

export interface BulkGroupsOptions {
  count: number;
  joinState?: JoinState;
  /** Bot accounts to put in the groups with the Bot role, in turn (group i gets botUserIds[i % n]). */
  botUserIds?: string[];
  /** Bulk members per group (new users, like bulk-members). */
  membersPerGroup?: number;
}

export interface BulkGroup {
  id: string;
  name: string;
  shortCode: string;
  discriminator: string;
  ownerId: string;
  botUserId: string | null;
  roleIds: Record<RoleKey, string>;
}

const BULK_EPOCH = Date.UTC(2024, 0, 1);

export function bulkCreateGroups(
  state: VrchatState,
  opts: BulkGroupsOptions,
): { created: number; groups: BulkGroup[]; elapsedMs: number } {
  const started = performance.now();
  const { count, joinState = 'request', membersPerGroup = 0 } = opts;
  const bots = opts.botUserIds ?? [];
  if (new Set(bots).size !== bots.length) throw vrcError(400, 'botUserIds lists an account twice.');
  if (count * membersPerGroup > BULK_GROUP_MEMBERS_MAX)
    throw vrcError(400, `At most ${BULK_GROUP_MEMBERS_MAX} members in all per call.`);
  // Checked before anything is made: every bot stays within VRChat's group limit.
  bots.forEach((botId, i) => {
    if (!state.users.has(botId)) throw vrcError(404, `User not found: ${botId}`);
    const adding = Math.floor(count / bots.length) + (i < count % bots.length ? 1 : 0);
    const already = state.userMemberships(botId, 'member').length;
    if (already + adding > state.config.maxGroupsPerUser)
      throw vrcError(
        409,
        `${state.displayName(botId)} is in ${already} groups: ${adding} more would pass the limit of ${state.config.maxGroupsPerUser} groups per account. Give more bot accounts.`,
      );
  });

  const groups: BulkGroup[] = [];
  for (let i = 0; i < count; i++) {
    state.bulkGroups += 1;
    const seq = state.bulkGroups;
    const key = `bulk-group:${seq}`;
    const number = String(seq).padStart(4, '0');
    const at = new Date(BULK_EPOCH + seq * 60_000).toISOString();
    const id = stableId('grp', key);
    const ownerId = stableId('usr', `${key}:owner`);
    state.users.set(
      ownerId,
      freshUser(ownerId, `Bulk Owner ${number}`, at, `${key}:owner`, { status: 'offline' }),
    );
    const group = {
      id,
      name: `Bulk Group ${number}`,
      shortCode: 'BULK',
      discriminator: number,
      description: `Scale-test group ${number}.`,
      rules: '',
      joinState,
      privacy: 'default' as const,
      ownerId,
      tags: ['language_eng'],
      languages: ['eng'],
      links: [],
      isVerified: false,
      iconId: stableId('file', `${key}:icon`),
      bannerId: stableId('file', `${key}:banner`),
      createdAt: at,
      updatedAt: at,
    };
    state.groups.set(id, group);
    const roleIds = {} as Record<RoleKey, string>;
    ROLES.forEach((r, order) => {
      roleIds[r.key] = stableId('grol', `${key}:${r.key}`);
      state.roles.set(roleIds[r.key], {
        id: roleIds[r.key],
        groupId: id,
        name: r.name,
        description: '',
        order,
        permissions: [...r.permissions],
        isSelfAssignable: false,
        isManagementRole: 'management' in r,
        requiresTwoFactor: false,
        requiresPurchase: false,
        createdAt: at,
        updatedAt: at,
      });
    });
    const join = (userId: string, roleId: string, acceptedById: string | null) =>
      state.setMembership(bulkMembership(id, userId, [roleId], at, acceptedById));
    join(ownerId, roleIds.owner, null);
    const botUserId = bots.length ? bots[i % bots.length] : null;
    if (botUserId) join(botUserId, roleIds.bot, ownerId);
    if (membersPerGroup) bulkAddMembers(state, id, membersPerGroup);
    groups.push({
      id,
      name: group.name,
      shortCode: 'BULK',
      discriminator: number,
      ownerId,
      botUserId,
      roleIds,
    });
  }
  return { created: count, groups, elapsedMs: Math.round(performance.now() - started) };
}

function bulkMembership(
  groupId: string,
  userId: string,
  roleIds: string[],
  at: string,
  acceptedById: string | null,
): VrcMembership {
  return {
    id: stableId('gmem', `bulk-group:${groupId}:${userId}`),
    groupId,
    userId,
    status: 'member',
    roleIds,
    visibility: 'visible',
    isRepresenting: false,
    isSubscribedToAnnouncements: true,
    managerNotes: '',
    createdAt: at,
    joinedAt: at,
    bannedAt: null,
    acceptedById,
  };
}

/**
 * `count` more bot accounts (`vrclink-bot-<n>`, numbered after the highest there is; demo.ts
 * `vrchatBotAccount(n)` gives their password and TOTP secret), in no group. Answers their credentials.
 */
export function createBotAccounts(state: VrchatState, count: number) {
  let n = 2;
  const made = [];
  while (made.length < count) {
    const a = botAccount(n++);
    if (state.accountByLogin(a.username) || state.users.has(a.userId)) continue;
    const now = new Date().toISOString();
    state.users.set(
      a.userId,
      freshUser(a.userId, a.displayName, now, `bot:${a.username}`, {
        status: 'active',
        bio: 'I am a VRCLink bot.',
      }),
    );
    state.accounts.set(a.userId, {
      userId: a.userId,
      username: a.username,
      email: a.email,
      password: a.password,
      totpSecret: a.totpSecret,
      recoveryCodes: [],
      twoFactorEnabledAt: now,
    });
    made.push({
      userId: a.userId,
      displayName: a.displayName,
      username: a.username,
      password: a.password,
      totpSecret: a.totpSecret,
    });
  }
  return made;
}
