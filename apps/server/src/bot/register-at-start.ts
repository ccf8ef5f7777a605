import type { AppContext } from '../kernel/context.js';
import { registerRoleConnectionMetadata } from '../wings/identity/linked-roles/linked-roles.service.js';
import { slashCommands } from './commands/index.js';
import { registerCommands } from './commands/register.js';

/**
 * What the bot tells Discord about itself at start: its slash commands, and (with Linked Roles on) its
 * role-connection metadata. A failure is logged; the gateway starts anyway and the next start tries again.
 */
export async function registerWithDiscord(ctx: AppContext): Promise<void> {
  const platforms = ctx.platforms;
  if (!platforms) return;
  try {
    const outcome = await registerCommands(ctx, platforms.bot.rest, slashCommands);
    ctx.log.info({ outcome }, 'Discord: slash commands checked');
  } catch (err) {
    ctx.log.error({ err }, 'Discord: could not register the slash commands');
  }
  if (!ctx.config.discord.linkedRolesEnabled) return;
  try {
    const outcome = await registerRoleConnectionMetadata(ctx);
    ctx.log.info({ outcome }, 'Discord: Linked Roles metadata checked');
  } catch (err) {
    ctx.log.error({ err }, 'Discord: could not register the Linked Roles metadata');
  }
}
