import { and, eq } from 'drizzle-orm';
import { refundToken, takeToken } from '../../../db/budget.js';
import type { Queryable } from '../../../db/client.js';
import { groupInvites, linkEvents, verificationCodes, vrchatLinks } from '../../../db/schema/index.js';
import { type Actor, userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { conflict, invalid, limited, missing } from '../../../kernel/errors.js';
import { linkEventsJob } from '../../../kernel/job-catalog.js';
import type { VrchatUserSummary } from '../../../platforms/ports.js';
import { memberLinked } from '../../access/index.js';
import { ageVerificationOf } from './age.js';
import { bioHasCode, newVerificationCode, vrchatIdFrom } from './code.js';

/** Call after committing a link change: the link events job (group sync's dispatchLinkEvents) turns it into syncs within seconds. */
function linkEventsWritten(ctx: AppContext): void {
  void ctx.jobs.send(linkEventsJob, {}, { singletonKey: linkEventsJob.name }).catch((err) => {
    ctx.log.warn({ err }, 'links.events not queued; its timer picks the change up');
  });
}

export const VERIFY_FAILED =
  'Failed to verify account. Make sure you have the verification code in your bio.';
export const NO_LINK = 'No VRChat account is linked to your Discord account.';
export const VRCHAT_USER_NOT_FOUND = 'VRChat user not found.';
export const CONFLICT_NEEDS_PROOF =
  'This VRChat account is linked to another Discord account. Put the verification code in its bio and verify ownership to move it.';

export type LinkRow = typeof vrchatLinks.$inferSelect;

export function profileUrl(ctx: AppContext, vrcId: string): string {
  return `${ctx.config.vrchat.webUrl}/home/user/${vrcId}`;
}

export async function findLinkByDiscord(db: Queryable, discordUserId: string): Promise<LinkRow | null> {
  const rows = await db
    .select()
    .from(vrchatLinks)
    .where(eq(vrchatLinks.discordUserId, discordUserId))
    .limit(1);
  return rows[0] ?? null;
}

async function findLinkByVrchat(db: Queryable, vrcUserId: string): Promise<LinkRow | null> {
  const rows = await db.select().from(vrchatLinks).where(eq(vrchatLinks.vrcUserId, vrcUserId)).limit(1);
  return rows[0] ?? null;
}

/**
 * Each member's share of the bot account's VRChat budget for searches: 3 at once, then one every 5 s (as the
 * guest search's cooldown), so one member looping searches cannot crowd out everyone else's.
 */
export const MEMBER_SEARCH_SHARE = { burst: 3, ratePerSecond: 1 / 5 };

/**
 * Each member's share for reading one VRChat account (Check, Link, Verify Account, Refresh): 10 at once, enough
 * for a whole linking with several Verify tries, then one every 5 s.
 */
export const MEMBER_ACCOUNT_READ_SHARE = { burst: 10, ratePerSecond: 1 / 5 };

/**
 * Runs a VRChat read within the member's share (kept in the database, so it holds across every server process);
 * past it the member is told how long to wait. A read VRChat did not answer (rate limited, unreachable) gives
 * the share back.
 */
async function withinMemberShare<T>(
  ctx: AppContext,
  share: { key: string; rate: { burst: number; ratePerSecond: number }; waitText: string },
  read: () => Promise<T>,
): Promise<T> {
  const take = await takeToken(ctx.db, share.key, share.rate);
  if (!take.granted) throw limited(`Please wait ${Math.ceil(take.waitMs / 1000)}s ${share.waitText}`);
  return read().catch(async (err: unknown) => {
    await refundToken(ctx.db, share.key, share.rate);
    throw err;
  });
}

/**
 * Searches VRChat users by display name, `usr_` id or pasted profile URL, with their thumbnails, within the
 * member's share.
 */
export function searchVrchatUsers(ctx: AppContext, discordUserId: string, query: string) {
  return withinMemberShare(
    ctx,
    {
      key: `vrchat-search:${discordUserId}`,
      rate: MEMBER_SEARCH_SHARE,
      waitText: 'before searching VRChat again.',
    },
    () => lookUpVrchatUsers(ctx, query),
  );
}

/** One VRChat account as the member's Check, Link, Verify or Refresh reads it (null: VRChat has no such user). */
function readVrchatUserFor(ctx: AppContext, discordUserId: string, vrcUserId: string) {
  return withinMemberShare(
    ctx,
    {
      key: `vrchat-account-read:${discordUserId}`,
      rate: MEMBER_ACCOUNT_READ_SHARE,
      waitText: 'before asking VRChat about an account again.',
    },
    () => ctx.vrchat.getUser(vrcUserId),
  );
}

async function lookUpVrchatUsers(ctx: AppContext, query: string) {
  const result = (u: VrchatUserSummary) => ({
    id: u.id,
    displayName: u.displayName,
    profileUrl: profileUrl(ctx, u.id),
    thumbnailUrl: u.thumbnailUrl,
  });
  const id = vrchatIdFrom(query);
  if (id) {
    const user = await ctx.vrchat.getUser(id);
    return user ? [result(user)] : [];
  }
  const found = await ctx.vrchat.searchUsers(query.trim(), { n: 20 });
  return found.map(result);
}

/** The code for this Discord user and VRChat account: created once, stable until used. */
async function codeFor(db: Queryable, discordUserId: string, vrcUserId: string): Promise<string> {
  await db
    .insert(verificationCodes)
    .values({ discordUserId, vrcUserId, code: newVerificationCode() })
    .onConflictDoNothing();
  const rows = await db
    .select({ code: verificationCodes.code })
    .from(verificationCodes)
    .where(
      and(eq(verificationCodes.discordUserId, discordUserId), eq(verificationCodes.vrcUserId, vrcUserId)),
    );
  return rows[0].code;
}

export async function checkLink(ctx: AppContext, discordUserId: string, vrcUserId: string) {
  // No code for an account VRChat does not have: the id was mistyped or the account deleted.
  await requireVrchatUser(ctx, discordUserId, vrcUserId);
  const existing = await findLinkByVrchat(ctx.db, vrcUserId);
  const status =
    existing && existing.discordUserId !== discordUserId ? ('Conflict' as const) : ('Success' as const);
  return { status, verificationCode: await codeFor(ctx.db, discordUserId, vrcUserId) };
}

async function requireVrchatUser(ctx: AppContext, discordUserId: string, vrcUserId: string) {
  const user = await readVrchatUserFor(ctx, discordUserId, vrcUserId);
  if (!user) throw missing(VRCHAT_USER_NOT_FOUND);
  return user;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * Writes this user's link to the VRChat account inside one transaction, with the events the role work
 * picks up. A link of another Discord account to the same VRChat account is moved only with proof.
 */
async function writeLink(
  ctx: AppContext,
  discordUserId: string,
  vrc: { id: string; displayName: string; ageVerificationStatus?: string; ageVerified?: boolean },
  verified: boolean,
): Promise<{ isVerified: boolean }> {
  const age = ageVerificationOf(vrc);
  try {
    return await ctx.db.transaction(async (tx) => {
      const holder = await findLinkByVrchat(tx, vrc.id);
      if (holder && holder.discordUserId !== discordUserId) {
        if (!verified) throw conflict(CONFLICT_NEEDS_PROOF);
        await tx.delete(vrchatLinks).where(eq(vrchatLinks.discordUserId, holder.discordUserId));
        await tx
          .insert(linkEvents)
          .values({ discordUserId: holder.discordUserId, vrcUserId: vrc.id, kind: 'moved_away' });
        await audit(tx, {
          action: 'link.moved_away',
          actor: userActor(discordUserId),
          targetId: holder.discordUserId,
          details: { vrcUserId: vrc.id, movedTo: discordUserId },
        });
      }
      const previous = await findLinkByDiscord(tx, discordUserId);
      const now = new Date();
      const keepVerified = previous?.vrcUserId === vrc.id && previous.isVerified;
      const isVerified = verified || keepVerified;
      const values = {
        vrcUserId: vrc.id,
        vrchatName: vrc.displayName,
        isVerified,
        ageVerification: age,
        verifiedAt: isVerified ? (keepVerified ? previous?.verifiedAt : now) : null,
        refreshedAt: now,
        linkedAt: previous?.vrcUserId === vrc.id ? previous.linkedAt : now,
      };
      await tx
        .insert(vrchatLinks)
        .values({ discordUserId, ...values })
        .onConflictDoUpdate({ target: vrchatLinks.discordUserId, set: values });
      if (previous && previous.vrcUserId !== vrc.id) {
        await tx
          .insert(linkEvents)
          .values({ discordUserId, vrcUserId: previous.vrcUserId, kind: 'unlinked' });
      }
      await tx
        .insert(linkEvents)
        .values({ discordUserId, vrcUserId: vrc.id, kind: verified ? 'verified' : 'linked' });
      if (verified) {
        await tx
          .delete(verificationCodes)
          .where(
            and(eq(verificationCodes.discordUserId, discordUserId), eq(verificationCodes.vrcUserId, vrc.id)),
          );
      }
      await audit(tx, {
        action: verified ? 'link.verified' : 'link.created',
        actor: userActor(discordUserId),
        targetId: vrc.id,
        details: { vrchatName: vrc.displayName, ageVerification: age, replaced: previous?.vrcUserId ?? null },
      });
      return { isVerified };
    });
  } catch (err) {
    // Someone else linked the same account between our read and write.
    if (isUniqueViolation(err)) throw conflict(CONFLICT_NEEDS_PROOF);
    throw err;
  }
}

export async function linkAccount(ctx: AppContext, discordUserId: string, vrcUserId: string) {
  const vrc = await requireVrchatUser(ctx, discordUserId, vrcUserId);
  const code = await codeFor(ctx.db, discordUserId, vrc.id);
  const proven = bioHasCode(vrc.bio, code);
  // Relinking an account this user already proved stays verified, and says so.
  const { isVerified } = await writeLink(ctx, discordUserId, vrc, proven);
  memberLinked(ctx, discordUserId);
  linkEventsWritten(ctx);
  return { status: isVerified ? ('SuccessVerified' as const) : ('Success' as const) };
}

export async function verifyAccount(ctx: AppContext, discordUserId: string, vrcUserId: string) {
  const vrc = await requireVrchatUser(ctx, discordUserId, vrcUserId);
  const rows = await ctx.db
    .select({ code: verificationCodes.code })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.discordUserId, discordUserId), eq(verificationCodes.vrcUserId, vrc.id)));
  const code = rows[0]?.code;
  if (!code || !bioHasCode(vrc.bio, code)) {
    // Already verified by this user (code consumed): verifying again is a no-op success.
    const mine = await findLinkByDiscord(ctx.db, discordUserId);
    if (mine?.vrcUserId === vrc.id && mine.isVerified) return { status: 'SuccessVerified' as const };
    throw invalid(VERIFY_FAILED);
  }
  await writeLink(ctx, discordUserId, vrc, true);
  memberLinked(ctx, discordUserId);
  linkEventsWritten(ctx);
  return { status: 'SuccessVerified' as const };
}

export async function refreshLink(ctx: AppContext, discordUserId: string) {
  const link = await findLinkByDiscord(ctx.db, discordUserId);
  if (!link) throw missing(NO_LINK);
  const vrc = await readVrchatUserFor(ctx, discordUserId, link.vrcUserId);
  if (!vrc) throw missing(VRCHAT_USER_NOT_FOUND);
  await writeRefresh(ctx, link, vrc, userActor(discordUserId));
  return { status: 'Success' as const };
}

/**
 * Stores what VRChat now says about a linked account (display name, age status), with the link event the
 * role work picks up and an audit entry naming who asked.
 */
async function writeRefresh(
  ctx: AppContext,
  link: LinkRow,
  vrc: { id: string; displayName: string; ageVerificationStatus?: string; ageVerified?: boolean },
  actor: Actor,
) {
  const age = ageVerificationOf(vrc);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(vrchatLinks)
      .set({ vrchatName: vrc.displayName, ageVerification: age, refreshedAt: new Date() })
      .where(and(eq(vrchatLinks.discordUserId, link.discordUserId), eq(vrchatLinks.vrcUserId, vrc.id)));
    await tx
      .insert(linkEvents)
      .values({ discordUserId: link.discordUserId, vrcUserId: vrc.id, kind: 'refreshed' });
    await audit(tx, {
      action: 'link.refreshed',
      actor,
      targetId: vrc.id,
      details: { vrchatName: vrc.displayName, ageVerification: age },
    });
  });
  linkEventsWritten(ctx);
}

/**
 * The scheduled refresh of one link (`links.refresh`): the same re-read as the user's Refresh, acting as
 * the job. Only a change writes the event and the audit entry; otherwise just the refresh time moves.
 * An account VRChat no longer knows keeps its link (the user may unlink) and waits for the next round.
 */
export async function refreshLinkInBackground(
  ctx: AppContext,
  link: LinkRow,
  actor: Actor,
): Promise<'changed' | 'unchanged' | 'gone'> {
  const vrc = await ctx.vrchat.getUser(link.vrcUserId);
  const changed =
    vrc && (vrc.displayName !== link.vrchatName || ageVerificationOf(vrc) !== link.ageVerification);
  if (vrc && changed) {
    await writeRefresh(ctx, link, vrc, actor);
    return 'changed';
  }
  await ctx.db
    .update(vrchatLinks)
    .set({ refreshedAt: new Date() })
    .where(and(eq(vrchatLinks.discordUserId, link.discordUserId), eq(vrchatLinks.vrcUserId, link.vrcUserId)));
  return vrc ? 'unchanged' : 'gone';
}

export async function unlinkAccount(ctx: AppContext, discordUserId: string) {
  await ctx.db.transaction(async (tx) => {
    const link = await findLinkByDiscord(tx, discordUserId);
    if (!link) throw missing(NO_LINK);
    await tx.delete(vrchatLinks).where(eq(vrchatLinks.discordUserId, discordUserId));
    await tx.insert(linkEvents).values({ discordUserId, vrcUserId: link.vrcUserId, kind: 'unlinked' });
    await audit(tx, { action: 'link.removed', actor: userActor(discordUserId), targetId: link.vrcUserId });
  });
  linkEventsWritten(ctx);
  return { status: 'Success' as const };
}

export async function resetGroupInvites(ctx: AppContext, discordUserId: string) {
  const link = await findLinkByDiscord(ctx.db, discordUserId);
  if (!link) throw missing(NO_LINK);
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(groupInvites)
      .where(eq(groupInvites.discordUserId, discordUserId))
      .returning();
    await tx.insert(linkEvents).values({ discordUserId, vrcUserId: link.vrcUserId, kind: 'invites_reset' });
    await audit(tx, {
      action: 'link.invites_reset',
      actor: userActor(discordUserId),
      targetId: link.vrcUserId,
      details: { cleared: removed.length },
    });
  });
  linkEventsWritten(ctx);
  return { status: 'Success' as const };
}
