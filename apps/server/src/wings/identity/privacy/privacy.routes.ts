import { requireUser } from '../../../http/auth.js';
import { SESSION_COOKIE } from '../../../http/cookies.js';
import { errorBody } from '../../../http/errors.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { AppError } from '../../../kernel/errors.js';
import { DELETION_NOT_QUEUED, deleteMyAccount } from './account-deletion.service.js';
import { accountDeleted, deleteAccountBody, myDataExport } from './privacy.schemas.js';
import { exportMyData, type UserDataOfOtherWings } from './privacy-export.service.js';

/** The privacy policy's self-service: download my data, delete my account. */
export async function privacyRoutes(
  app: ZodApp,
  ctx: AppContext,
  others: UserDataOfOtherWings,
): Promise<void> {
  app.get(
    '/users/profile/export',
    {
      schema: {
        operationId: 'exportMyData',
        tags: ['profile'],
        description:
          'Everything the product holds about the caller, as a JSON file (no secrets: no session ids, token hashes or OAuth tokens). Audit-logged.',
        response: { 200: myDataExport, 401: errorBody, 404: errorBody },
      },
    },
    async (req, reply) => {
      const { user } = requireUser(req);
      const data = await exportMyData(ctx, user.id, others);
      const day = data.exportedAt.slice(0, 10);
      reply.header('content-disposition', `attachment; filename="vrclink-my-data-${day}.json"`);
      reply.header('cache-control', 'no-store');
      return data;
    },
  );

  app.delete(
    '/users/profile',
    {
      schema: {
        operationId: 'deleteMyAccount',
        tags: ['profile'],
        description:
          'Deletes the caller’s account, confirmed by their username: every session and SDK token ends now; a job unlinks, takes back the roles the bot gave, erases their rows and pseudonymises them in the audit entries that stay.',
        body: deleteAccountBody,
        response: { 200: accountDeleted, 400: errorBody, 401: errorBody, 503: errorBody },
      },
    },
    async (req, reply) => {
      const { user } = requireUser(req);
      try {
        const result = await deleteMyAccount(ctx, user, req.body.username);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return result;
      } catch (err) {
        if (err instanceof AppError && err.message === DELETION_NOT_QUEUED) reply.header('retry-after', '60');
        throw err;
      }
    },
  );
}
