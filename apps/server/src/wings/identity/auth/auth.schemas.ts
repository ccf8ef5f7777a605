import { z } from 'zod';

export const currentUser = z.object({
  id: z.string().describe('Discord user id'),
  username: z.string(),
  avatar: z.string().nullable().describe('Avatar image URL'),
  rank: z.enum(['Admin', 'User']),
});
z.globalRegistry.add(currentUser, { id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUser>;

/** Whose one-time login token it is, shown before it is redeemed. */
export const loginTokenPreview = z.object({
  username: z.string(),
  avatar: z.string().nullable().describe('Avatar image URL'),
});
z.globalRegistry.add(loginTokenPreview, { id: 'LoginTokenPreview' });

/** A completed Discord login: the user and where the browser goes next. */
export const loginResult = currentUser.extend({
  returnTo: z.string().describe('Same-origin path to land on: the return path of GET /login, else /profile'),
});
z.globalRegistry.add(loginResult, { id: 'LoginResult' });

/** A refused Discord login: the sentence, and for the login page a reason it can name in the address. */
export const loginFailure = z.object({
  message: z.string(),
  reason: z
    .enum(['expired', 'rejected'])
    .optional()
    .describe('expired: the state is missing or another browser’s; rejected: Discord refused the code'),
});
z.globalRegistry.add(loginFailure, { id: 'LoginFailure' });
