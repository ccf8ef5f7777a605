import { eq } from 'drizzle-orm';
import { userActor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { loginTokens, sessions } from '../../db/schema/index.js';
import { invalid, unavailable } from '../../errors.js';
import { accountEraseJob } from '../../jobs/catalog.js';
import { audit } from '../audit/audit.service.js';
import { notifySessions, sessionCacheOf } from '../auth/session-cache.js';
import { findLinkByDiscord } from '../links/links.service.js';
import type { ErasureRequest } from './account-erasure.js';
import { USERNAME_MISMATCH } from './privacy.schemas.js';
import { newPseudonym } from './pseudonym.js';

export const DELETION_NOT_QUEUED = 'Your account could not be deleted right now. Try again in a minute.';
export const ACCOUNT_DELETED =
  'Your account was deleted. Roles the bot gave you are being taken back; this takes a minute.';

/**
 * 'Delete my account': confirmed by the username typed. The erasure is queued first (the job is the
 * durable record that it must happen, and it takes back roles on Discord and VRChat outside any
 * transaction); then every session and SDK token ends at once and the deletion is audit-logged under the
 * pseudonym that replaces the user in the entries that stay, so that entry names nobody.
 */
export async function deleteMyAccount(
  ctx: AppContext,
  user: { id: string; username: string },
  typedUsername: string,
) {
  if (typedUsername.trim() !== user.username) throw invalid(USERNAME_MISMATCH);
  const link = await findLinkByDiscord(ctx.db, user.id);
  const request: ErasureRequest = {
    userId: user.id,
    pseudonym: newPseudonym(),
    vrcUserId: link?.vrcUserId ?? null,
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
    await audit(tx, {
      action: 'account.deleted',
      actor: userActor(request.pseudonym),
      targetId: request.pseudonym,
    });
  });
  sessionCacheOf(ctx.db).forget(`user:${user.id}`);
  return { status: 'Deleted' as const, message: ACCOUNT_DELETED };
}
