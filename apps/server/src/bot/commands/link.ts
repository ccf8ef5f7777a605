import { inertText } from '../../platforms/discord/inert-text.js';
import { findLinkByDiscord, profileUrl } from '../../wings/identity/links/links.service.js';
import { inServers, type SlashCommand } from './command.js';
import { describeAge } from './describe.js';

/** `/link`: how to link, where, and how the member's link stands now. */
export const linkCommand: SlashCommand = {
  definition: {
    name: 'link',
    description: 'How to link your VRChat account, and how your link stands',
    ...inServers,
  },
  deferred: false,
  async run(interaction, ctx) {
    const site = ctx.config.publicUrl;
    const link = await findLinkByDiscord(ctx.db, interaction.user.id);
    if (!link)
      return (
        `Your Discord account is not linked to a VRChat account yet. To link it, sign in at ${site} ` +
        `(or use /login), open your Profile at ${site}/profile, search for your VRChat account and ` +
        'put the verification code it shows in your VRChat bio to prove it is yours.'
      );
    const ownership = link.isVerified
      ? 'Ownership is verified.'
      : `Ownership is not verified yet: put the code from ${site}/profile in your VRChat bio, then use /verify.`;
    return (
      `Your Discord account is linked to the VRChat account ${inertText(link.vrchatName)} ` +
      `(${profileUrl(ctx, link.vrcUserId)}). ${ownership} ${describeAge(link)} ` +
      `Change or remove the link at ${site}/profile.`
    );
  },
};
