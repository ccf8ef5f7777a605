import { z } from 'zod';
import { requireUser } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import {
  checkLink,
  linkAccount,
  refreshLink,
  resetGroupInvites,
  searchVrchatUsers,
  unlinkAccount,
  verifyAccount,
} from './links.service.js';

const vrcIdQuery = z.object({
  vrcId: z
    .string()
    .trim()
    .regex(/^usr_[0-9a-zA-Z-]{1,64}$|^[0-9A-Za-z]{10}$/, 'must be a VRChat user id (usr_…)'),
});
const vrchatUserResult = z.object({
  id: z.string(),
  displayName: z.string(),
  profileUrl: z.string(),
  /** The VRChat thumbnail (profile picture, else avatar); null when VRChat has none. */
  thumbnailUrl: z.string().nullable(),
});
z.globalRegistry.add(vrchatUserResult, { id: 'VrchatUserResult' });
const checkResult = z.object({ status: z.enum(['Success', 'Conflict']), verificationCode: z.string() });
const linkResult = z.object({ status: z.enum(['Success', 'SuccessVerified']) });
const okResult = z.object({ status: z.literal('Success') });

const route = routeSchemas({ tag: 'links' });

/** Linking a VRChat account to the signed-in Discord account (spec user-area sections 4, 7, 8). */
export async function linksRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/users/search',
    route({
      operationId: 'searchVrchatUsers',
      description:
        "VRChat users by display name, usr_ id or profile URL. 429 past the member's share (3 at once, then one every 5 s).",
      querystring: z.object({ query: z.string().trim().min(1, 'must not be empty').max(200) }),
      response: { 200: z.array(vrchatUserResult) },
    }),
    async (req) => {
      return searchVrchatUsers(ctx, requireUser(req).user.id, req.query.query);
    },
  );

  app.get(
    '/users/check',
    route({
      operationId: 'checkVrchatUser',
      description:
        'Conflict when the VRChat account is linked to another Discord account; the code to prove ownership. 404 when VRChat has no such user.',
      querystring: vrcIdQuery,
      response: { 200: checkResult },
    }),
    async (req) => checkLink(ctx, requireUser(req).user.id, req.query.vrcId),
  );

  app.post(
    '/users/link',
    route({
      operationId: 'linkVrchatUser',
      description:
        'SuccessVerified when the code is already in the bio, else Success (linked, not verified).',
      querystring: vrcIdQuery,
      response: { 200: linkResult },
    }),
    async (req) => linkAccount(ctx, requireUser(req).user.id, req.query.vrcId),
  );

  app.post(
    '/users/verify',
    route({
      operationId: 'verifyVrchatUser',
      description:
        'Reads the VRChat bio; with the code the link is verified (and moved here from another account).',
      querystring: vrcIdQuery,
      response: { 200: linkResult },
    }),
    async (req) => verifyAccount(ctx, requireUser(req).user.id, req.query.vrcId),
  );

  app.get(
    '/users/refresh',
    {
      config: { stateChanging: true },
      ...route({
        operationId: 'refreshLink',
        description: 'Re-reads the linked VRChat account (name, age verification).',
        response: { 200: okResult },
      }),
    },
    async (req) => refreshLink(ctx, requireUser(req).user.id),
  );

  app.post(
    '/users/unlink',
    route({
      operationId: 'unlinkAccount',
      response: { 200: okResult },
    }),
    async (req) => unlinkAccount(ctx, requireUser(req).user.id),
  );

  app.get(
    '/users/group/reset_invites',
    {
      config: { stateChanging: true },
      ...route({
        operationId: 'resetGroupInvites',
        description: 'Forgets the group invites sent to this user so the sync may invite again.',
        response: { 200: okResult },
      }),
    },
    async (req) => resetGroupInvites(ctx, requireUser(req).user.id),
  );
}
