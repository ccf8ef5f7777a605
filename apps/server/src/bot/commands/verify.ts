import { isAppError } from '../../kernel/errors.js';
import { inertText } from '../../platforms/discord/inert-text.js';
import {
  findLinkByDiscord,
  NO_LINK,
  refreshLink,
  verifyAccount,
} from '../../wings/identity/links/links.service.js';
import { inServers, type SlashCommand } from './command.js';
import { describeAge } from './describe.js';

/**
 * `/verify`: re-reads the caller's VRChat account now (display name and age status), as the Profile
 * page's Refresh does, and checks ownership (the bio code) when it is not proven yet, as its Verify does.
 */
export const verifyCommand: SlashCommand = {
  definition: {
    name: 'verify',
    description: 'Re-check your linked VRChat account (name, age verification, ownership) now',
    ...inServers,
  },
  deferred: true,
  async run(interaction, ctx) {
    const userId = interaction.user.id;
    const before = await findLinkByDiscord(ctx.db, userId);
    if (!before) return `${NO_LINK} Use /link to see how to link one.`;
    await refreshLink(ctx, userId);
    let ownership = 'Ownership is verified.';
    if (!before.isVerified) {
      try {
        await verifyAccount(ctx, userId, before.vrcUserId);
      } catch (err) {
        if (!isAppError(err, 'invalid')) throw err;
        ownership = `Ownership is not verified yet: put the code from ${ctx.config.publicUrl}/profile in your VRChat bio, then run /verify again.`;
      }
    }
    const link = await findLinkByDiscord(ctx.db, userId);
    if (!link) return NO_LINK;
    return `Your link is up to date: ${inertText(link.vrchatName)} on VRChat. ${ownership} ${describeAge(link)}`;
  },
};
