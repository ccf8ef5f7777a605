import { and, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import {
  apiKeys,
  apiLog,
  auditLog,
  discordTokens,
  groupInvites,
  guests,
  guildMembers,
  guildPermissions,
  linkEvents,
  sdkLoginRequests,
  sessions,
  users,
  verificationCodes,
  vrchatLinks,
  worldImages,
} from '../../../db/schema/index.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** The privacy policy's export: every row the product holds about the user, without any secret. */
export async function exportMyData(ctx: AppContext, userId: string) {
  const db = ctx.db;
  const [account] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!account) throw missing('Your account was not found.');
  const [link] = await db.select().from(vrchatLinks).where(eq(vrchatLinks.discordUserId, userId)).limit(1);
  const [token] = await db
    .select({ scope: discordTokens.scope, expiresAt: discordTokens.expiresAt })
    .from(discordTokens)
    .where(eq(discordTokens.userId, userId));
  const me = link ? [userId, link.vrcUserId] : [userId];
  const [
    codes,
    events,
    invites,
    hosted,
    guestOf,
    perms,
    members,
    mySessions,
    sdk,
    keys,
    calls,
    images,
    entries,
  ] = await Promise.all([
    db.select().from(verificationCodes).where(eq(verificationCodes.discordUserId, userId)),
    db.select().from(linkEvents).where(eq(linkEvents.discordUserId, userId)).orderBy(linkEvents.id),
    db.select().from(groupInvites).where(eq(groupInvites.discordUserId, userId)),
    db.select().from(guests).where(eq(guests.hostUserId, userId)),
    db.select().from(guests).where(eq(guests.guestDiscordId, userId)),
    db.select().from(guildPermissions).where(eq(guildPermissions.userId, userId)),
    db.select().from(guildMembers).where(eq(guildMembers.userId, userId)),
    db.select().from(sessions).where(eq(sessions.userId, userId)),
    db.select().from(sdkLoginRequests).where(eq(sdkLoginRequests.approvedBy, userId)),
    db.select().from(apiKeys).where(eq(apiKeys.createdBy, userId)),
    db.select().from(apiLog).where(eq(apiLog.userId, userId)).orderBy(desc(apiLog.id)),
    db.select().from(worldImages).where(eq(worldImages.createdBy, userId)),
    db
      .select()
      .from(auditLog)
      .where(
        or(inArray(auditLog.actorId, me), and(isNotNull(auditLog.targetId), inArray(auditLog.targetId, me))),
      )
      .orderBy(auditLog.id),
  ]);
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
    groupInvites: invites.map((i) => ({
      groupId: i.groupId,
      vrcUserId: i.vrcUserId,
      invitedAt: iso(i.invitedAt),
    })),
    guestsIHost: hosted.map((g) => ({
      guildId: g.guildId,
      guestRoleId: g.guestRoleId,
      guestDiscordId: g.guestDiscordId,
      guestUsername: g.guestUsername,
      guestVrcId: g.guestVrcId,
      guestVrcName: g.guestVrcName,
      createdAt: iso(g.createdAt),
    })),
    guestOf: guestOf.map((g) => ({
      guildId: g.guildId,
      hostUserId: g.hostUserId,
      guestRoleId: g.guestRoleId,
      createdAt: iso(g.createdAt),
    })),
    serverPermissions: perms.map((p) => ({
      guildId: p.guildId,
      permissions: p.permissions,
      grantedBy: p.grantedBy,
      updatedAt: iso(p.updatedAt),
    })),
    serverMemberships: members.map((m) => ({
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
    apiKeysCreated: keys.map((k) => ({
      id: k.id,
      guildId: k.guildId,
      name: k.name,
      permissions: k.permissions,
      createdOn: iso(k.createdOn),
      validUntil: iso(k.validUntil),
      lastUsedAt: isoOrNull(k.lastUsedAt),
    })),
    apiCalls: calls.map((c) => ({
      guildId: c.guildId,
      method: c.method,
      path: c.path,
      status: c.status,
      createdAt: iso(c.createdAt),
    })),
    worldImagesUploaded: images.map((i) => ({
      id: i.id,
      guildId: i.guildId,
      name: i.name,
      createdAt: iso(i.createdAt),
    })),
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
  await audit(ctx.db, { action: 'account.exported', actor: userActor(userId), targetId: userId });
  return result;
}
