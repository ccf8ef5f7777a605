import type { AppContext } from '../../../kernel/context.js';
import { mirrorDeps } from './member-mirror.events.js';
import { ensureFilled } from './member-mirror.fill.js';
import { currentMembersWithAnyRole, linkedMembers, memberTotals } from './member-mirror.store.js';

/**
 * What other modules read from the member mirror (this module owns its tables): counts for the Discord
 * tab and the linked members world data encodes, each one query joined with the links.
 */

/**
 * The Discord tab's counts (the totals kept beside the mirror: one row, whatever the server's size). `membersIntent` false: the mirror keeps linked members only (no Server
 * Members intent), so `members` is Discord's own count and `linkedMembers` those it could check.
 */
export async function guildMemberCounts(ctx: AppContext, guildId: string) {
  const sync = await ensureFilled(mirrorDeps(ctx), guildId);
  const counted = await memberTotals(ctx.db, guildId);
  const full = sync?.mode !== 'linked';
  return {
    members: full ? counted.members : Math.max(sync?.memberCount ?? 0, counted.members),
    linkedMembers: counted.linked,
    membersIntent: full,
  };
}

/** Current members with a link (ownership-verified only, if asked): their roles and their link. */
export async function linkedMembersOf(
  ctx: AppContext,
  guildId: string,
  opts: { verifiedOnly?: boolean } = {},
) {
  await ensureFilled(mirrorDeps(ctx), guildId);
  const rows = await linkedMembers(ctx.db, guildId, opts);
  return rows.map(({ member, link }) => ({ userId: member.userId, roleIds: member.roleIds, link }));
}

/**
 * Current human members holding any of the roles (the permissions list's Discord managers). In 'linked'
 * mode the mirror keeps linked members only, so unlinked holders are not found.
 */
export async function membersWithAnyRole(ctx: AppContext, guildId: string, roleIds: string[]) {
  if (roleIds.length === 0) return [];
  await ensureFilled(mirrorDeps(ctx), guildId).catch((err) =>
    ctx.log.warn({ err, guildId }, 'Members: fill failed; listing role holders from what is stored'),
  );
  const rows = await currentMembersWithAnyRole(ctx.db, guildId, roleIds);
  return rows.map((m) => ({ userId: m.userId, roleIds: m.roleIds }));
}
