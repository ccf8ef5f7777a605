import type { AppContext } from '../../../kernel/context.js';
import type { DiscordGuildInfo, VrchatGroup, VrchatGroupRole } from '../../../platforms/ports.js';
import { currentPeopleWithLinks, ensureFilled, freshenLinkedMirror, mirrorDeps } from '../../access/index.js';
import { assignableRoleProblem, guildSettingsOf, type RetiredAutoRole } from '../../community/index.js';
import { recordedInvitesOf } from '../../identity/index.js';
import { linkOf } from '../groups/groups.service.js';
import { activeMappingsOf } from '../role-mappings/active-mappings.js';
import { neededPermissions } from '../role-mappings/group-needs.js';
import { retiredRoleGrants } from './auto-role-rules.js';
import { botStanding, GROUP_PERMISSIONS, groupWrittenAt, readGroup } from './group-reads.js';
import { recentJoinRefusals } from './join-refusals.js';
import type { PlanGroup, PlanMember, SyncPlanInput } from './sync-plan.js';
import { hasTemporaryGroupRoles, readTemporaryGrants } from './temporary-grants.js';

/** A problem found while looking, before any plan (the bot is not in the group, lacks a permission…). */
export interface ObserveWarning {
  kind: 'groupMissing' | 'botNotInGroup' | 'groupPermission' | 'discordPermission' | 'botNotInServer';
  subject: string;
}

export interface Observation {
  input: SyncPlanInput;
  /** Auto roles changed away from with 'take back' chosen, not yet taken over by a sync (their grants are in the input). */
  retiredAutoRoles: RetiredAutoRole[];
  warnings: ObserveWarning[];
  guild: DiscordGuildInfo;
  /** The linked group, as VRChat shows it (roles included); null when none is linked or it is gone. */
  group: (VrchatGroup & { roles: VrchatGroupRole[] }) | null;
  /** False when VRChat stopped listing the group early: Auto Remove then sees only the members listed. */
  groupListComplete: boolean;
  /** Names for messages: Discord user ids and VRChat user ids. */
  names: Map<string, string>;
  /** Platform reads made to observe (the benchmark reports them). */
  reads: number;
}

/**
 * Reads what the plan needs: the server's settings, mappings and links from the database, members and their
 * roles from the member mirror, and the VRChat group's members, invites and join requests. Returns null when
 * the bot is not in the server (nothing to sync). `freshMembers` (the sync, not the dry run): where the mirror
 * keeps linked members only, their roles are read from Discord first.
 */
export async function observeGuild(
  ctx: AppContext,
  guildId: string,
  opts: { freshMembers?: boolean; readGroup?: boolean; preview?: boolean } = {},
): Promise<Observation | null> {
  let reads = 0;
  const warnings: ObserveWarning[] = [];
  const guild = await ctx.discord.getGuild(guildId);
  reads++;
  if (!guild) return null;
  const bot = await ctx.discord.botMember(guildId);
  const botRoleIds = bot?.roles ?? [];
  const manageableDiscordRoleIds = new Set(
    guild.roles.filter((r) => !assignableRoleProblem(guild, botRoleIds, r.id)).map((r) => r.id),
  );

  await ensureFilled(mirrorDeps(ctx), guildId);
  // Without member events a sync reads the linked members' roles now (or refills if the intent is back);
  // the dry run reads the mirror as it is (an interactive request).
  if (opts.freshMembers) {
    await freshenLinkedMirror(
      mirrorDeps(ctx),
      guildId,
      () => ctx.platforms?.bot.refreshIntents() ?? Promise.resolve(),
    ).catch((err) =>
      ctx.log.warn({ err, guildId }, 'sync: could not re-read linked members; using the mirror as it is'),
    );
  }
  const settings = await guildSettingsOf(ctx.db, guildId);
  const rows = await currentPeopleWithLinks(ctx.db, guildId);
  const names = new Map<string, string>();
  const members: PlanMember[] = rows.map(({ member, link }) => {
    const name = member.nickname ?? member.globalName ?? member.username;
    names.set(member.userId, name);
    if (link) names.set(link.vrcUserId, link.vrchatName);
    return {
      discordUserId: member.userId,
      name,
      roleIds: member.roleIds,
      link: link
        ? {
            vrcUserId: link.vrcUserId,
            vrchatName: link.vrchatName,
            verified: link.isVerified,
            age: link.ageVerification,
          }
        : null,
    };
  });

  const observed = await observeGroup(
    ctx,
    guildId,
    members,
    names,
    warnings,
    opts.readGroup ?? false,
    opts.preview ?? false,
  );
  reads += observed.reads;
  return {
    input: {
      guildId,
      autoRoles: {
        linkedRoleId: settings?.linkedRoleId ?? null,
        plus18RoleId: settings?.ageVerifiedPlus18RoleId ?? null,
        ageVerifiedRoleId: settings?.ageVerifiedRoleId ?? null,
      },
      manageableDiscordRoleIds,
      members,
      group: observed.plan,
      temporaryGrants: [
        ...(await readTemporaryGrants(ctx.db, guildId)),
        ...retiredRoleGrants(members, settings?.retiredAutoRoles ?? []),
      ],
    },
    retiredAutoRoles: settings?.retiredAutoRoles ?? [],
    warnings,
    guild,
    group: observed.group,
    groupListComplete: observed.complete,
    names,
    reads,
  };
}

async function observeGroup(
  ctx: AppContext,
  guildId: string,
  members: readonly PlanMember[],
  names: Map<string, string>,
  warnings: ObserveWarning[],
  /** Read the group even when the sync would not (a preview of switching the Groups feature on). */
  readAlways: boolean,
  /** A preview: a recent read of the group will do (see group-reads.ts). */
  reuse: boolean,
) {
  const none = { plan: null, group: null, complete: true, reads: 0 };
  const link = await linkOf(ctx.db, guildId);
  if (!link) return none;
  const { d2g, g2d } = await activeMappingsOf(ctx.db, guildId);
  // Nothing to do in the group and nothing to read from it. With the Groups feature off, the temporary group
  // roles the bot gave still have to be taken back, so a recorded one is a reason to read.
  if (!link.enabled && g2d.length === 0 && !readAlways && !(await hasTemporaryGroupRoles(ctx.db, guildId)))
    return none;

  const read = await readGroup(ctx, link.groupId, {
    reuse,
    writtenAt: () => groupWrittenAt(ctx.db, guildId),
  });
  let reads = read.reads;
  if (read.kind === 'missing') {
    warnings.push({ kind: 'groupMissing', subject: link.groupId });
    return { ...none, reads };
  }
  const { group, roles } = read;
  if (read.kind === 'botNotInGroup') {
    warnings.push({ kind: 'botNotInGroup', subject: link.groupId });
    return { ...none, group: { ...group, roles }, reads };
  }
  const { botId, listing, invites, requests } = read;
  const { botRank, owner, can } = botStanding(group, roles, botId, read.botMembership);
  // Only the permissions the settings need, by the setup doctor's rule, so the Sync box and the doctor agree.
  const needed = neededPermissions({
    enabled: link.enabled,
    autoKick: link.autoKick,
    actions: new Set(d2g.map((m) => m.action)),
    mappedGroupRoleIds: new Set(d2g.flatMap((m) => (m.groupRoleId ? [m.groupRoleId] : []))),
  });
  for (const [what, permission] of Object.entries(GROUP_PERMISSIONS)) {
    if (!can[what as keyof typeof can] && needed.has(permission))
      warnings.push({ kind: 'groupPermission', subject: permission });
  }
  const rankOf = (roleIds: readonly string[]) =>
    Math.min(Number.MAX_SAFE_INTEGER, ...roles.filter((r) => roleIds.includes(r.id)).map((r) => r.order));

  // Members: the listing where VRChat gives it all; each linked member not listed is asked for by id.
  const groupMembers = new Map<string, readonly string[]>();
  // The bot's other VRChat accounts too: a group may hold one that does not serve it.
  const protectedUserIds = new Set<string>([botId, ...(await ctx.vrchat.accountUserIds())]);
  if (group.ownerId) protectedUserIds.add(group.ownerId);
  const seen = (m: { userId: string; roleIds: string[]; displayName: string | null }) => {
    groupMembers.set(m.userId, m.roleIds);
    if (m.displayName && !names.has(m.userId)) names.set(m.userId, m.displayName);
    if (!owner && rankOf(m.roleIds) <= botRank && m.userId !== botId) protectedUserIds.add(m.userId);
  };
  for (const m of listing.members) if (m.membershipStatus === 'member') seen(m);
  if (!listing.complete) {
    for (const m of members) {
      if (!m.link || groupMembers.has(m.link.vrcUserId)) continue;
      const one = await ctx.vrchat.getGroupMember(link.groupId, m.link.vrcUserId);
      reads++;
      if (one?.membershipStatus === 'member') seen(one);
    }
  }
  const [recorded, refusals] = await Promise.all([
    recordedInvitesOf(ctx.db, link.groupId),
    recentJoinRefusals(ctx.db, link.groupId),
  ]);
  for (const r of requests) if (r.displayName && !names.has(r.userId)) names.set(r.userId, r.displayName);

  const plan: PlanGroup = {
    enabled: link.enabled,
    autoRemove: link.autoKick,
    members: groupMembers,
    names,
    pendingInvites: new Set(invites.map((i) => i.userId)),
    joinRequests: new Set(requests.map((r) => r.userId).filter((id) => !groupMembers.has(id))),
    alreadyInvited: new Set(recorded.map((r) => r.vrcUserId)),
    refusedJoinRequests: refusals,
    protectedUserIds,
    manageableRoleIds: new Set(
      roles
        .filter((r) => (owner || r.order > botRank) && !r.requiresPurchase && r.order > 0)
        .map((r) => r.id),
    ),
    can,
    discordToGroup: d2g,
    groupToDiscord: g2d,
  };
  return { plan, group: { ...group, roles }, complete: listing.complete, reads };
}
