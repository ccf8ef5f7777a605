import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Queryable } from '../../../db/client.js';
import {
  auditLog,
  discordTokens,
  groupInvites,
  linkChangeSummaries,
  linkEvents,
  sdkLoginRequests,
  sessions,
  users,
  verificationCodes,
  vrchatLinks,
} from '../../../db/schema/index.js';
import { actorId, userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { accessRowsOfUser } from '../../access/index.js';
import type { myDataExport } from './privacy.schemas.js';

export type MyDataExport = z.infer<typeof myDataExport>;

/**
 * The parts of the export that wings above identity hold (guests, world images, API calls), read by those
 * wings: app.ts hands their readers in, as identity may not import them.
 */
export interface UserDataOfOtherWings {
  guests: (db: Queryable, userId: string) => Promise<Pick<MyDataExport, 'guestsIHost' | 'guestOf'>>;
  worldImages: (db: Queryable, userId: string) => Promise<Pick<MyDataExport, 'worldImagesUploaded'>>;
  apiCalls: (db: Queryable, userId: string) => Promise<Pick<MyDataExport, 'apiCalls'>>;
}

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** The privacy policy's export: every row the product holds about the user, without any secret. */
export async function exportMyData(ctx: AppContext, userId: string, others: UserDataOfOtherWings) {
  const db = ctx.db;
  const [account] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!account) throw missing('Your account was not found.');
  const [link] = await db.select().from(vrchatLinks).where(eq(vrchatLinks.discordUserId, userId)).limit(1);
  const [token] = await db
    .select({ scope: discordTokens.scope, expiresAt: discordTokens.expiresAt })
    .from(discordTokens)
    .where(eq(discordTokens.userId, userId));
  const [summary] = await db
    .select()
    .from(linkChangeSummaries)
    .where(eq(linkChangeSummaries.discordUserId, userId));
  const me = link ? [userId, link.vrcUserId] : [userId];
  const [codes, events, invites, guests, access, mySessions, sdk, calls, images, entries] = await Promise.all(
    [
      db.select().from(verificationCodes).where(eq(verificationCodes.discordUserId, userId)),
      db.select().from(linkEvents).where(eq(linkEvents.discordUserId, userId)).orderBy(linkEvents.id),
      db.select().from(groupInvites).where(eq(groupInvites.discordUserId, userId)),
      others.guests(db, userId),
      accessRowsOfUser(db, userId),
      db.select().from(sessions).where(eq(sessions.userId, userId)),
      db.select().from(sdkLoginRequests).where(eq(sdkLoginRequests.approvedBy, userId)),
      others.apiCalls(db, userId),
      others.worldImages(db, userId),
      db
        .select()
        .from(auditLog)
        .where(
          or(
            inArray(auditLog.actorId, me),
            and(isNotNull(auditLog.targetId), inArray(auditLog.targetId, me)),
          ),
        )
        .orderBy(auditLog.id),
    ],
  );
  const result = {
    exportedAt: new Date().toISOString(),
    account: {
      id: account.id,
      username: account.username,
      globalName: account.globalName,
      avatar: account.avatar,
      createdAt: iso(account.createdAt),
      lastLoginAt: iso(account.lastLoginAt),
    },
    discordAuthorization: token ? { scope: token.scope, expiresAt: iso(token.expiresAt) } : null,
    vrchatLink: link
      ? {
          vrcUserId: link.vrcUserId,
          vrchatName: link.vrchatName,
          isVerified: link.isVerified,
          ageVerification: link.ageVerification,
          linkedAt: iso(link.linkedAt),
          verifiedAt: isoOrNull(link.verifiedAt),
          refreshedAt: iso(link.refreshedAt),
        }
      : null,
    verificationCodesPending: codes.map((c) => ({ vrcUserId: c.vrcUserId, createdAt: iso(c.createdAt) })),
    linkEvents: events.map((e) => ({
      vrcUserId: e.vrcUserId,
      kind: e.kind,
      createdAt: iso(e.createdAt),
      processedAt: isoOrNull(e.processedAt),
    })),
    linkChangesBeforeThose: summary
      ? { changes: summary.changes, lastChangedAt: isoOrNull(summary.lastChangedAt) }
      : null,
    groupInvites: invites.map((i) => ({
      groupId: i.groupId,
      vrcUserId: i.vrcUserId,
      invitedAt: iso(i.invitedAt),
    })),
    ...guests,
    serverPermissions: access.permissions.map((p) => ({
      guildId: p.guildId,
      permissions: p.permissions,
      grantedBy: p.grantedBy,
      updatedAt: iso(p.updatedAt),
    })),
    serverMemberships: access.memberships.map((m) => ({
      guildId: m.guildId,
      username: m.username,
      globalName: m.globalName,
      nickname: m.nickname,
      roleIds: m.roleIds,
      joinedAt: isoOrNull(m.joinedAt),
      leftAt: isoOrNull(m.leftAt),
    })),
    sessions: mySessions.map((s) => ({
      kind: s.kind,
      createdAt: iso(s.createdAt),
      expiresAt: iso(s.expiresAt),
    })),
    sdkApprovals: sdk.map((r) => ({
      approvedAt: isoOrNull(r.approvedAt),
      redeemedAt: isoOrNull(r.redeemedAt),
      expiresAt: iso(r.expiresAt),
    })),
    apiKeysCreated: access.keys.map((k) => ({
      id: k.id,
      guildId: k.guildId,
      name: k.name,
      permissions: k.permissions,
      createdOn: iso(k.createdOn),
      validUntil: iso(k.validUntil),
      lastUsedAt: isoOrNull(k.lastUsedAt),
    })),
    ...calls,
    ...images,
    auditEntries: entries.map((e) => ({
      id: e.id,
      guildId: e.guildId,
      actorId: e.actorId,
      action: e.action,
      targetId: e.targetId,
      details: e.details ?? null,
      createdAt: iso(e.createdAt),
    })),
  };
  await auditExport(ctx.db, userId);
  return result;
}

/**
 * One `account.exported` entry per user and UTC day: each export after the day's first raises its `count` and
 * `lastAt`, so a user downloading in a loop (600 a minute measured) cannot grow the audit log without end.
 * Serialised per user, so two exports at once still share one entry.
 */
async function auditExport(db: AppContext['db'], userId: string) {
  const actor = userActor(userId);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`account_exported:${userId}`}))`);
    const raised = await tx.execute(sql`
      update audit_log
      set details = jsonb_build_object('count', coalesce((details->>'count')::int, 1) + 1, 'lastAt', now())
      where id = (
        select id from audit_log
        where actor_id = ${actorId(actor)} and action = 'account.exported'
          and created_at >= date_trunc('day', now(), 'UTC')
        order by id desc limit 1
      )
      returning id`);
    if (raised.rows.length > 0) return;
    await audit(tx, { action: 'account.exported', actor, targetId: userId, details: { count: 1 } });
  });
}
