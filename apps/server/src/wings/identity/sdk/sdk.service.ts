import { and, eq, isNull } from 'drizzle-orm';
import { sdkLoginRequests } from '../../../db/schema/index.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { randomToken, sha256 } from '../../../kernel/crypto.js';
import { conflict, missing } from '../../../kernel/errors.js';
import { toCurrentUser } from '../auth/login.service.js';
import { createSession } from '../auth/session.service.js';
import { getUser } from '../auth/user.service.js';

export const SDK_TOKEN_TTL_MS = 10 * 60 * 1000;

export async function startSdkLogin(ctx: AppContext): Promise<{ token: string }> {
  const token = randomToken();
  await ctx.db
    .insert(sdkLoginRequests)
    .values({ tokenHash: sha256(token), expiresAt: new Date(Date.now() + SDK_TOKEN_TTL_MS) });
  return { token };
}

async function findRequest(ctx: AppContext, token: string) {
  const rows = await ctx.db
    .select()
    .from(sdkLoginRequests)
    .where(eq(sdkLoginRequests.tokenHash, sha256(token)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Read-only: whether this request can still be allowed by this user, so the page refuses a dead link
 * before asking "Allow?" (the same answers Allow would give; nothing changes, nothing to audit).
 */
export async function checkSdkLogin(ctx: AppContext, userId: string, token: string): Promise<void> {
  await allowableRequest(ctx, userId, token);
}

/** The request behind `token` if this user may still allow it; else the error Allow would answer. */
async function allowableRequest(ctx: AppContext, userId: string, token: string) {
  const request = await findRequest(ctx, token);
  if (!request) throw missing('This sign-in request was not found.');
  if (request.expiresAt < new Date())
    throw missing('This sign-in request has expired. Start again from the SDK.', 'expired');
  if (request.redeemedAt || (request.approvedBy && request.approvedBy !== userId)) {
    throw conflict('This sign-in request was already used.');
  }
  return request;
}

/** The signed-in user allows the editor that showed this token to act as them. */
export async function approveSdkLogin(ctx: AppContext, userId: string, token: string): Promise<void> {
  const request = await allowableRequest(ctx, userId, token);
  await ctx.db
    .update(sdkLoginRequests)
    .set({ approvedBy: userId, approvedAt: new Date() })
    .where(eq(sdkLoginRequests.tokenHash, request.tokenHash));
  await audit(ctx.db, { action: 'sdk.approved', actor: userActor(userId), targetId: userId });
}

/**
 * The signed-in user refuses the request: it is used up at once (redeemed without an access token), so
 * the editor's next poll answers Unauthorized instead of waiting for the 10 minutes to pass.
 */
export async function denySdkLogin(ctx: AppContext, userId: string, token: string): Promise<void> {
  const request = await findRequest(ctx, token);
  if (!request) throw missing('This sign-in request was not found.');
  if (request.expiresAt < new Date())
    throw missing('This sign-in request has expired. Start again from the SDK.', 'expired');
  // Refusing twice is fine; refusing what another user approved, or what was already used, is not.
  if (request.redeemedAt && !request.approvedBy) return;
  if (request.redeemedAt || (request.approvedBy && request.approvedBy !== userId)) {
    throw conflict('This sign-in request was already used.');
  }
  const refused = await ctx.db
    .update(sdkLoginRequests)
    .set({ redeemedAt: new Date(), approvedBy: null, approvedAt: null })
    .where(and(eq(sdkLoginRequests.tokenHash, request.tokenHash), isNull(sdkLoginRequests.redeemedAt)))
    .returning();
  // The editor's poll got there first with this user's approval: the token is out, deny came too late.
  if (refused.length === 0) throw conflict('This sign-in request was already used.');
  await audit(ctx.db, { action: 'sdk.denied', actor: userActor(userId), targetId: userId });
}

export type SdkLoginStatus =
  | 'Ok'
  | 'TokenNotAuthorizedYet'
  | 'Unauthorized'
  | 'TokenExpired'
  | 'TokenNotFound'
  | 'Error';

/** The editor's poll: Ok once (single use) with an access token, else why not. */
export async function redeemSdkLogin(ctx: AppContext, token: string) {
  const request = await findRequest(ctx, token);
  if (!request) return { status: 'TokenNotFound' as SdkLoginStatus };
  if (request.redeemedAt) return { status: 'Unauthorized' as SdkLoginStatus };
  if (request.expiresAt < new Date()) return { status: 'TokenExpired' as SdkLoginStatus };
  if (!request.approvedBy) return { status: 'TokenNotAuthorizedYet' as SdkLoginStatus };
  const claimed = await ctx.db
    .update(sdkLoginRequests)
    .set({ redeemedAt: new Date() })
    .where(and(eq(sdkLoginRequests.tokenHash, request.tokenHash), isNull(sdkLoginRequests.redeemedAt)))
    .returning();
  // Two polls racing: only the one whose update matched gets the token.
  if (claimed.length === 0) {
    return { status: 'Unauthorized' as SdkLoginStatus };
  }
  const user = await getUser(ctx.db, request.approvedBy);
  if (!user) return { status: 'Unauthorized' as SdkLoginStatus };
  const accessToken = await createSession(ctx.db, user.id, 'sdk');
  await audit(ctx.db, { action: 'sdk.token_issued', actor: userActor(user.id), targetId: user.id });
  const current = toCurrentUser(ctx, user);
  return {
    status: 'Ok' as SdkLoginStatus,
    token: accessToken,
    id: user.id,
    username: user.username,
    avatar: current.avatar,
    globalName: user.globalName,
    rank: current.rank,
  };
}
