import { z } from 'zod';
import { requireUser } from '../../../http/auth.js';
import { errorBody } from '../../../http/errors.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import {
  approveSdkLogin,
  checkSdkLogin,
  denySdkLogin,
  redeemSdkLogin,
  startSdkLogin,
} from './sdk.service.js';

// The token comes from the address the editor opened: a cut-off or edited link is the user's doing.
const MALFORMED_TOKEN = 'This sign-in link is not valid. Start the login again from the VRChat SDK in Unity.';
const tokenBody = z.object({ token: z.string().min(10, MALFORMED_TOKEN).max(200, MALFORMED_TOKEN) });
// The editor reads `status` from every poll answer, so any unknown token is TokenNotFound, not a 400.
const pollBody = z.object({ token: z.string().max(1000) });
const sdkLoginResult = z.object({
  status: z.enum(['Ok', 'TokenNotAuthorizedYet', 'Unauthorized', 'TokenExpired', 'TokenNotFound', 'Error']),
  token: z.string().optional(),
  id: z.string().optional(),
  username: z.string().optional(),
  avatar: z.string().nullable().optional(),
  globalName: z.string().nullable().optional(),
  rank: z.enum(['Admin', 'User']).optional(),
});
z.globalRegistry.add(sdkLoginResult, { id: 'SdkLoginResult' });

/** The Unity SDK's editor login (compat/world-sdk.md, "Editor login"). */
export async function sdkRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/sdk-login',
    {
      schema: {
        operationId: 'startSdkLogin',
        tags: ['sdk'],
        description: 'A one-time token (10 minutes) the editor shows as /sdk-oauth?token=….',
        response: { 200: z.object({ token: z.string() }) },
      },
    },
    async () => startSdkLogin(ctx),
  );

  app.post(
    '/sdk-login',
    {
      // The editor has no browser cookies, so no XSRF pair; it proves nothing but the token it holds.
      config: { xsrfExempt: true },
      schema: {
        operationId: 'pollSdkLogin',
        tags: ['sdk'],
        description: 'Ok once approved (single use) with an access token for Authorization: Bearer.',
        body: pollBody,
        response: { 200: sdkLoginResult },
      },
    },
    async (req) => redeemSdkLogin(ctx, req.body.token),
  );

  app.get(
    '/oauth-request',
    {
      schema: {
        operationId: 'checkSdkLogin',
        tags: ['sdk'],
        description:
          'Read-only: 204 when the signed-in user can still allow this request; else the answer Allow would give (404 unknown or malformed, 410 expired, 409 used).',
        querystring: tokenBody,
        response: {
          204: z.undefined(),
          400: errorBody,
          401: errorBody,
          404: errorBody,
          409: errorBody,
          410: errorBody,
        },
      },
    },
    async (req, reply) => {
      await checkSdkLogin(ctx, requireUser(req).user.id, req.query.token);
      return reply.code(204).send();
    },
  );

  app.post(
    '/oauth-approve',
    {
      schema: {
        operationId: 'approveSdkLogin',
        tags: ['sdk'],
        body: tokenBody,
        response: { 204: z.undefined(), 401: errorBody, 404: errorBody, 409: errorBody, 410: errorBody },
      },
    },
    async (req, reply) => {
      await approveSdkLogin(ctx, requireUser(req).user.id, req.body.token);
      return reply.code(204).send();
    },
  );

  app.post(
    '/oauth-deny',
    {
      schema: {
        operationId: 'denySdkLogin',
        tags: ['sdk'],
        description: 'Refuses the request at once: the editor’s next poll answers Unauthorized.',
        body: tokenBody,
        response: { 204: z.undefined(), 401: errorBody, 404: errorBody, 409: errorBody, 410: errorBody },
      },
    },
    async (req, reply) => {
      await denySdkLogin(ctx, requireUser(req).user.id, req.body.token);
      return reply.code(204).send();
    },
  );
}
