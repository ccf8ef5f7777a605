import { and, eq, gt, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.js';
import { groupJoinRefusals } from '../../../db/schema/index.js';

/** How long the sync leaves a refused join request alone before asking VRChat again. */
export const JOIN_REFUSAL_HOURS = 24;

/** What the tabs show (and the audit log keeps, once) for a join request VRChat would not accept. */
export const joinRefusedMessage = (name: string) =>
  `VRChat would not let ${name} join the group: they are in too many groups. The bot asks again after ${JOIN_REFUSAL_HOURS} hours.`;

/** The group's join requests refused within the last day: VRChat user id → the message recorded then. */
export async function recentJoinRefusals(db: Queryable, groupId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ vrcUserId: groupJoinRefusals.vrcUserId, message: groupJoinRefusals.message })
    .from(groupJoinRefusals)
    .where(
      and(
        eq(groupJoinRefusals.groupId, groupId),
        gt(groupJoinRefusals.refusedAt, sql`now() - make_interval(hours => ${JOIN_REFUSAL_HOURS})`),
      ),
    );
  return new Map(rows.map((r) => [r.vrcUserId, r.message]));
}

/** Records (or renews) a refusal: the next day's syncs skip this request and say why. */
export async function recordJoinRefusal(db: Queryable, groupId: string, vrcUserId: string, message: string) {
  await db
    .insert(groupJoinRefusals)
    .values({ groupId, vrcUserId, message })
    .onConflictDoUpdate({
      target: [groupJoinRefusals.groupId, groupJoinRefusals.vrcUserId],
      set: { message, refusedAt: sql`now()` },
    });
}
