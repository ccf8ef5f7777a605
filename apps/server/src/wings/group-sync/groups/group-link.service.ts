import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guildGroups } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, missing } from '../../../kernel/errors.js';
import type { VrchatGroup, VrchatJoinOutcome } from '../../../platforms/ports.js';
import { requireGuildPermission } from '../../access/index.js';
import { bioHasCode } from '../../identity/index.js';
import type { LinkJoinStatus } from './groups.schemas.js';
import { linkOf } from './groups.service.js';
import { currentLinkCode, forgetLinkCode, issueLinkCode } from './link-codes.js';

export const GROUP_NOT_FOUND = 'VRChat group not found.';
export const SERVER_ALREADY_LINKED = 'This server already has a linked VRChat group. Unlink it first.';
export const GROUP_LINKED_ELSEWHERE = 'This VRChat group is already linked to another server.';

async function requireGroup(ctx: AppContext, groupId: string): Promise<VrchatGroup> {
  const group = await ctx.vrchat.getGroup(groupId);
  if (!group) throw missing(GROUP_NOT_FOUND);
  return group;
}

/**
 * Refuses a second group for the server and a group another server holds; answers whether this very link
 * already exists (a repeated Link Group click).
 */
async function checkLinkable(db: Queryable, guildId: string, groupId: string): Promise<boolean> {
  const own = await linkOf(db, guildId);
  if (own) {
    if (own.groupId === groupId) return true;
    throw conflict(SERVER_ALREADY_LINKED);
  }
  const [other] = await db
    .select({ guildId: guildGroups.guildId })
    .from(guildGroups)
    .where(eq(guildGroups.groupId, groupId))
    .limit(1);
  if (other) throw conflict(GROUP_LINKED_ELSEWHERE);
  return false;
}

/** Step 1 of linking: the group and the code to put into its description; Admin only. */
export async function startGroupLink(ctx: AppContext, actor: Actor, guildId: string, rawGroupId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const groupId = rawGroupId.toLowerCase();
  const group = await requireGroup(ctx, groupId);
  await checkLinkable(ctx.db, guildId, groupId);
  const linkCode = await issueLinkCode(ctx.db, guildId, groupId);
  return { id: group.id, name: group.name, iconUrl: group.iconUrl, linkCode };
}

async function codeInDescription(ctx: AppContext, guildId: string, group: VrchatGroup) {
  const code = await currentLinkCode(ctx.db, guildId, group.id);
  return code !== null && bioHasCode(group.description, code);
}

/** Whether the group's description carries the server's link code; Admin only. */
export async function checkGroupLink(ctx: AppContext, actor: Actor, guildId: string, rawGroupId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const group = await requireGroup(ctx, rawGroupId.toLowerCase());
  return { status: (await codeInDescription(ctx, guildId, group)) ? 'CodeFound' : 'CodeNotFound' } as const;
}

const joinStatus: Record<Exclude<VrchatJoinOutcome, 'member'>, LinkJoinStatus> = {
  requested: 'Requested',
  invite_only: 'Invited',
  refused: 'Unknown',
};

/** Makes the product's account a member where it can; answers the status when it is not (yet) one. */
async function ensureMembership(ctx: AppContext, group: VrchatGroup): Promise<LinkJoinStatus | null> {
  if (group.membershipStatus === 'member') return null;
  if (group.membershipStatus === 'requested') return 'Requested';
  if (group.membershipStatus === 'banned') return 'Unknown';
  const outcome = await ctx.vrchat.joinGroup(group.id);
  return outcome === 'member' ? null : joinStatus[outcome];
}

/** Step 2 of linking: with the code in the description, joins the group and stores the link; Admin only. */
export async function joinGroupLink(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  rawGroupId: string,
): Promise<{ status: LinkJoinStatus }> {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const group = await requireGroup(ctx, rawGroupId.toLowerCase());
  if (await checkLinkable(ctx.db, guildId, group.id)) return { status: 'Member' };
  if (!(await codeInDescription(ctx, guildId, group))) return { status: 'CodeNotFound' };
  const pending = await ensureMembership(ctx, group);
  if (pending) return { status: pending };
  await ctx.db.transaction(async (tx) => {
    // One lock for all links, so two servers (or two clicks) cannot both pass the checks.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('guild_groups:link'))`);
    if (await checkLinkable(tx, guildId, group.id)) return;
    await tx
      .insert(guildGroups)
      .values({ guildId, groupId: group.id, name: group.name, iconUrl: group.iconUrl });
    await forgetLinkCode(tx, guildId, group.id);
    await audit(tx, {
      action: 'group.linked',
      actor,
      guildId,
      targetId: group.id,
      details: { name: group.name },
    });
  });
  return { status: 'Member' };
}
