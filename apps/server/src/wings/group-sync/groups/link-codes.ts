import { and, eq, gte, lt } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { groupLinkCodes } from '../../../db/schema/index.js';
import { newVerificationCode } from '../../identity/index.js';

/** How long a group link code stays valid. */
export const LINK_CODE_TTL_MS = 24 * 60 * 60 * 1000;

const of = (guildId: string, groupId: string) =>
  and(eq(groupLinkCodes.guildId, guildId), eq(groupLinkCodes.groupId, groupId));
const cutoff = () => new Date(Date.now() - LINK_CODE_TTL_MS);

/** The live code for this server and group, if one was issued in the last 24 hours. */
export async function currentLinkCode(db: Queryable, guildId: string, groupId: string) {
  const [row] = await db
    .select({ code: groupLinkCodes.code })
    .from(groupLinkCodes)
    .where(and(of(guildId, groupId), gte(groupLinkCodes.createdAt, cutoff())));
  return row?.code ?? null;
}

/** The code for this server and group: created once, stable until used or 24 hours old. */
export async function issueLinkCode(db: Queryable, guildId: string, groupId: string): Promise<string> {
  await db.delete(groupLinkCodes).where(and(of(guildId, groupId), lt(groupLinkCodes.createdAt, cutoff())));
  await db
    .insert(groupLinkCodes)
    .values({ guildId, groupId, code: newVerificationCode() })
    .onConflictDoNothing();
  const code = await currentLinkCode(db, guildId, groupId);
  if (!code) throw new Error('group link code vanished after insert');
  return code;
}

export async function forgetLinkCode(db: Queryable, guildId: string, groupId: string): Promise<void> {
  await db.delete(groupLinkCodes).where(of(guildId, groupId));
}
