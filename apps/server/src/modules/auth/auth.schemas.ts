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
