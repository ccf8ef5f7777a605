import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guildGroups } from '../../../db/schema/index.js';
import type { Actor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import { VRCHAT_GROUPS_PER_ACCOUNT } from '../../../kernel/config.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, missing } from '../../../kernel/errors.js';
import type { VrchatAccountPort, VrchatGroup, VrchatJoinOutcome } from '../../../platforms/ports.js';
import { requireGuildPermission } from '../../access/index.js';
import { bioHasCode } from '../../identity/index.js';
import { botAccountOf, chooseAccount, groupsPerAccount } from './group-accounts.js';
import type { BotAccount, LinkJoinStatus } from './groups.schemas.js';
import { linkOf } from './groups.service.js';
import { currentLinkCode, forgetLinkCode, issueLinkCode } from './link-codes.js';

export const GROUP_NOT_FOUND = 'VRChat group not found.';
export const SERVER_ALREADY_LINKED = 'This server already has a linked VRChat group. Unlink it first.';
export const BOT_ACCOUNT_JUST_FULL =
  'The bot account chosen for the group has just reached 100 groups. Press Link Group again.';
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
  // Which bot account would serve the group, so the manager knows whom to invite (asked again at Link Group).
  const { account } = await chooseAccount(ctx, groupId);
  const botAccount = await botAccountOf(ctx, account);
  return { id: group.id, name: group.name, iconUrl: group.iconUrl, linkCode, botAccount };
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

/** Makes the chosen bot account a member where it can; answers the status when it is not (yet) one. */
async function ensureMembership(
  vrchat: VrchatAccountPort,
  group: VrchatGroup,
): Promise<LinkJoinStatus | null> {
  if (group.membershipStatus === 'member') return null;
  if (group.membershipStatus === 'requested') return 'Requested';
  if (group.membershipStatus === 'banned') return 'Unknown';
  const outcome = await vrchat.joinGroup(group.id);
  return outcome === 'member' ? null : joinStatus[outcome];
}

/** Step 2 of linking: with the code in the description, joins the group and stores the link; Admin only. */
export async function joinGroupLink(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  rawGroupId: string,
): Promise<{ status: LinkJoinStatus; botAccount?: BotAccount | null }> {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const group = await requireGroup(ctx, rawGroupId.toLowerCase());
  if (await checkLinkable(ctx.db, guildId, group.id)) return { status: 'Member' };
  if (!(await codeInDescription(ctx, guildId, group))) return { status: 'CodeNotFound' };
  // The bot account to serve the group: one already in it, else the one serving the fewest groups.
  const choice = await chooseAccount(ctx, group.id);
  const vrchat = ctx.vrchat.forAccount(choice.account);
  // The group as the chosen account sees it (a group not linked yet was read through the first account).
  const seen =
    choice.group ??
    (choice.account === ctx.vrchat.accounts()[0] ? group : await vrchat.getGroup(group.id)) ??
    group;
  const pending = await ensureMembership(vrchat, seen);
  if (pending) return { status: pending, botAccount: await botAccountOf(ctx, choice.account) };
  await ctx.db.transaction(async (tx) => {
    // One lock for all links, so two servers (or two clicks) cannot both pass the checks.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('guild_groups:link'))`);
    if (await checkLinkable(tx, guildId, group.id)) return;
    const served = (await groupsPerAccount(ctx, tx)).get(choice.account.toLowerCase()) ?? 0;
    if (served >= VRCHAT_GROUPS_PER_ACCOUNT) throw conflict(BOT_ACCOUNT_JUST_FULL);
    await tx.insert(guildGroups).values({
      guildId,
      groupId: group.id,
      name: group.name,
      iconUrl: group.iconUrl,
      vrchatAccount: choice.account,
    });
    await forgetLinkCode(tx, guildId, group.id);
    await audit(tx, {
      action: 'group.linked',
      actor,
      guildId,
      targetId: group.id,
      details: { name: group.name, vrchatAccount: choice.account },
    });
    await audit(tx, {
      action: 'group.vrchat_account_assigned',
      actor,
      guildId,
      targetId: group.id,
      details: { name: group.name, vrchatAccount: choice.account },
    });
  });
  return { status: 'Member', botAccount: await botAccountOf(ctx, choice.account) };
}
