import { z } from 'zod';
import { ageVerificationValues } from '../../../db/schema/links.js';
import { requireUser } from '../../../http/auth.js';
import { errorBody } from '../../../http/errors.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { getProfile } from './profile.service.js';

const profile = z.object({
  user: z.object({ id: z.string(), username: z.string(), avatar: z.string().nullable() }),
  linkData: z
    .object({
      id: z.string(),
      vrchatName: z.string(),
      isVerified: z.boolean(),
      ageVerification: z.enum(ageVerificationValues),
    })
    .nullable(),
  guilds: z.array(
    z.object({ id: z.string(), name: z.string(), icon: z.string().nullable(), canSetupGuests: z.boolean() }),
  ),
  groups: z.array(z.object({ id: z.string(), name: z.string(), icon: z.string().nullable() })),
});
z.globalRegistry.add(profile, { id: 'Profile' });

export async function profileRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/users/profile',
    {
      schema: {
        operationId: 'getProfile',
        tags: ['profile'],
        description:
          'The caller, their VRChat link, their servers (where the bot is) and those servers’ groups.',
        response: { 200: profile, 401: errorBody, 502: errorBody, 503: errorBody },
      },
    },
    async (req) => getProfile(ctx, requireUser(req).user),
  );
}
