import type { Actor } from '../../../kernel/actor.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { provenAge } from '../../../kernel/proven-age.js';
import {
  ensureFilled,
  type LinkedMemberRow,
  linkedMemberPage,
  type LinkedMemberFilter as MemberFilter,
  mirrorDeps,
  requireGuildPermission,
} from '../../access/index.js';
import type { V1MemberQuery } from './api-v1.schemas.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { groupRoleHolders } from './group-roles.js';

/** What every /api/v1 member route needs. */
export const V1_MEMBER_PERMISSION = 'ViewGuild';
export const MEMBER_NOT_LINKED = 'No linked member of this server has that id.';
const CURSOR_KIND = 'member';
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const toV1Member = ({ member, link }: LinkedMemberRow) => ({
  discordId: member.userId,
  discordUsername: member.username,
  discordDisplayName: member.nickname ?? member.globalName ?? member.username,
  vrchatId: link.vrcUserId,
  vrchatDisplayName: link.vrchatName,
  verified: link.isVerified,
  ageVerification: provenAge(link),
  discordRoleIds: member.roleIds,
  linkedAt: link.linkedAt.toISOString(),
});

/** Called once the caller passed the permission check (the route marks the call for the server's API log). */
export type OnPermitted = () => void;

/** Permission first, then the mirror filled once (what is stored is answered if Discord cannot be read). */
async function readyToRead(ctx: AppContext, actor: Actor, guildId: string, onPermitted?: OnPermitted) {
  await requireGuildPermission(ctx, actor, guildId, V1_MEMBER_PERMISSION);
  onPermitted?.();
  await ensureFilled(mirrorDeps(ctx), guildId).catch((err) =>
    ctx.log.warn({ err, guildId }, 'API v1: member mirror fill failed; answering from what is stored'),
  );
}

export async function listLinkedMembers(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  q: V1MemberQuery,
  onPermitted?: OnPermitted,
) {
  await readyToRead(ctx, actor, guildId, onPermitted);
  const afterId = q.cursor ? decodeCursor(CURSOR_KIND, q.cursor, /^\d{1,20}$/) : undefined;
  const groupRoleIds = list(q.groupRoleId);
  const roleIds = list(q.discordRoleId);
  const filter: MemberFilter = {
    // The server's id is its @everyone role, which every member holds (and no member's role list names).
    discordRoleIds: roleIds.includes(guildId) ? [] : roleIds,
    vrchatIds: groupRoleIds.length ? await groupRoleHolders(ctx, guildId, groupRoleIds) : undefined,
    vrcNamePrefix: q.vrcName,
    vrcId: q.vrcId,
    verified: q.verified === undefined ? undefined : q.verified === 'true',
    ageVerification: q.ageVerification,
  };
  const rows = await linkedMemberPage(ctx.db, guildId, filter, { afterId, limit: q.limit });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    members: page.map(toV1Member),
    nextCursor: rows.length > q.limit && last ? encodeCursor(CURSOR_KIND, last.member.userId) : null,
  };
}

export async function linkedMemberBy(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  by: { discordId: string } | { vrcId: string },
  onPermitted?: OnPermitted,
) {
  await readyToRead(ctx, actor, guildId, onPermitted);
  const [row] = await linkedMemberPage(ctx.db, guildId, by, { limit: 1 });
  if (!row) throw missing(MEMBER_NOT_LINKED);
  return toV1Member(row);
}
