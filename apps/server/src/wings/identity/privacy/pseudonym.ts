import { randomBytes } from 'node:crypto';

/**
 * What stands for a deleted user in the audit entries that must stay: random, so it cannot be traced back
 * to the Discord id (a hash of a 64-bit snowflake could be reversed by trying them all), and the same in
 * every entry of that user, so a server's staff still see that one (deleted) person did those things.
 */
export const newPseudonym = () => `deleted-user-${randomBytes(6).toString('hex')}`;

export const isPseudonym = (id: string) => /^deleted-user-[0-9a-f]{12}$/.test(id);

/**
 * Keys of audit details that name a person (display names, and the summary of a change, which may name the
 * member it was about): dropped from a deleted user's entries.
 */
export const NAME_KEYS = [
  'vrchatName',
  'username',
  'globalName',
  'platformUsername',
  'targetName',
  'summary',
];
