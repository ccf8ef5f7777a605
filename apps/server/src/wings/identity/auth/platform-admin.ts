import type { AppContext } from '../../../kernel/context.js';
import { refused } from '../../../kernel/errors.js';
import { rankOf } from './user.service.js';

export const PLATFORM_ADMIN_ONLY = 'Only platform admins can do this.';

/** Platform admins are rank Admin (ADMIN_DISCORD_IDS); nobody else reaches /admin's calls. */
export function requirePlatformAdmin(ctx: AppContext, userId: string): void {
  if (rankOf(ctx.config, userId) !== 'Admin') throw refused(PLATFORM_ADMIN_ONLY);
}
