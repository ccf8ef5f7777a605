import { eq } from 'drizzle-orm';
import { loginTokens, sessions } from '../../../db/schema/index.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { invalid, unavailable } from '../../../kernel/errors.js';
import { accountEraseJob } from '../../../kernel/job-catalog.js';
import { notifySessions, sessionCacheOf } from '../auth/session-cache.js';
import { findLinkByDiscord } from '../links/links.service.js';
import { databaseNow, type ErasureRequest, unlinkAsRequested } from './account-erasure.js';
import { USERNAME_MISMATCH } from './privacy.schemas.js';
import { newPseudonym } from './pseudonym.js';

export const DELETION_NOT_QUEUED = 'Your account could not be deleted right now. Try again in a minute.';
export const ACCOUNT_DELETED =
  'Your account was deleted. Roles the bot gave you are being taken back; this takes a minute.';

/**
 * 'Delete my account': confirmed by the username typed. The erasure is queued first (the job is the
 * durable record that it must happen, and it takes back roles on Discord and VRChat outside any
 * transaction); then every session and SDK token ends at once, the VRChat link goes (so the person signing
 * in again before the job runs starts as a new account, with no link the bot would act on), and the
 * deletion is audit-logged under the pseudonym that replaces the user in the entries that stay, so that
 * entry names nobody. The job acts only on what existed at `requestedAt`.
 */
export async function deleteMyAccount(
  ctx: AppContext,
  user: { id: string; username: string },
  typedUsername: string,
) {
  if (typedUsername.trim() !== user.username) throw invalid(USERNAME_MISMATCH);
  const link = await findLinkByDiscord(ctx.db, user.id);
  const requestedAt = await databaseNow(ctx.database.executeSql);
  const request: ErasureRequest = {
    userId: user.id,
    pseudonym: newPseudonym(),
    vrcUserId: link?.vrcUserId ?? null,
    requestedAt,
  };
  try {
    await ctx.jobs.send(accountEraseJob, request, { singletonKey: `${accountEraseJob.name}:${user.id}` });
  } catch (err) {
    ctx.log.error({ err }, 'account deletion: erasure not queued');
    throw unavailable(DELETION_NOT_QUEUED);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await notifySessions(tx, `user:${user.id}`);
    await tx.delete(loginTokens).where(eq(loginTokens.userId, user.id));
    await unlinkAsRequested(tx, user.id, requestedAt);
    await audit(tx, {
      action: 'account.deleted',
      actor: userActor(request.pseudonym),
      targetId: request.pseudonym,
    });
  });
  sessionCacheOf(ctx.db).forget(`user:${user.id}`);
  return { status: 'Deleted' as const, message: ACCOUNT_DELETED };
}
