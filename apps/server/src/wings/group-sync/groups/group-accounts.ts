import { count } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { guildGroups } from '../../../db/schema/index.js';
import { VRCHAT_GROUPS_PER_ACCOUNT } from '../../../kernel/config.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict } from '../../../kernel/errors.js';
import type { VrchatGroup } from '../../../platforms/ports.js';
import type { BotAccount } from './groups.schemas.js';

export const NO_BOT_ACCOUNT_ROOM =
  'Every VRChat bot account already serves 100 groups. Ask the operator to add another bot account.';

/** How many linked groups each configured account serves (a link with no account stored is the first's). */
export async function groupsPerAccount(
  ctx: AppContext,
  db: Queryable = ctx.db,
): Promise<Map<string, number>> {
  const accounts = ctx.vrchat.accounts();
  const counts = new Map(accounts.map((a) => [a.toLowerCase(), 0]));
  const rows = await db
    .select({ account: guildGroups.vrchatAccount, n: count() })
    .from(guildGroups)
    .groupBy(guildGroups.vrchatAccount);
  for (const row of rows) {
    const key = (row.account ?? accounts[0] ?? '').toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + row.n);
  }
  return counts;
}

/** Whether the account is (on its way to being) in the group: a member first, then a pending request or invite. */
const standing = (group: VrchatGroup | null) =>
  group?.membershipStatus === 'member'
    ? 0
    : group?.membershipStatus === 'requested' || group?.membershipStatus === 'invited'
      ? 1
      : 2;

export interface AccountChoice {
  account: string;
  /** The group as that account sees it (its membershipStatus is the account's). */
  group: VrchatGroup | null;
}

/**
 * The bot account that is to serve a group being linked (docs/decisions.md, "Which bot account serves a
 * group"): an account already in the group, else one whose join request or invite is pending, else the
 * account serving the fewest linked groups; always one under 100 groups, ties in configured order. Asks
 * VRChat how each account with room stands in the group (one read per account, each on its own budget);
 * an account VRChat does not answer for is passed over. Refuses when no account has room.
 */
export async function chooseAccount(ctx: AppContext, groupId: string): Promise<AccountChoice> {
  const accounts = ctx.vrchat.accounts();
  const counts = await groupsPerAccount(ctx);
  const withRoom = accounts.filter((a) => (counts.get(a.toLowerCase()) ?? 0) < VRCHAT_GROUPS_PER_ACCOUNT);
  if (withRoom.length === 0) throw conflict(NO_BOT_ACCOUNT_ROOM);
  if (accounts.length === 1) return { account: withRoom[0] as string, group: null };
  const views = await Promise.all(
    withRoom.map(async (account, order) => {
      try {
        const group = await ctx.vrchat.forAccount(account).getGroup(groupId);
        return { account, order, group, ok: true };
      } catch (err) {
        ctx.log.warn({ err, account, groupId }, 'group link: a bot account could not read the group');
        return { account, order, group: null, ok: false };
      }
    }),
  );
  const answered = views.filter((v) => v.ok);
  const candidates = answered.length > 0 ? answered : views;
  candidates.sort(
    (a, b) =>
      standing(a.group) - standing(b.group) ||
      (counts.get(a.account.toLowerCase()) ?? 0) - (counts.get(b.account.toLowerCase()) ?? 0) ||
      a.order - b.order,
  );
  const best = candidates[0] as (typeof candidates)[number];
  return { account: best.account, group: best.group };
}

/** The account as the manager sees it (to invite it); null when VRChat does not answer now. */
export async function botAccountOf(ctx: AppContext, account: string): Promise<BotAccount | null> {
  try {
    const profile = await ctx.vrchat.accountProfile(account);
    return { userId: profile.userId, displayName: profile.displayName };
  } catch (err) {
    ctx.log.warn({ err, account }, 'group link: the bot account profile could not be read');
    return null;
  }
}
