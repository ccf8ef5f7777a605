import { ApplicationCommandOptionType } from 'discord.js';
import { userActor } from '../../kernel/actor.js';
import { inertText } from '../../platforms/discord/inert-text.js';
import { MEMBER_NOT_FOUND } from '../../wings/access/members/members.service.js';
import { requireGuildPermission } from '../../wings/access/permissions/access.service.js';
import { findLinkByDiscord, profileUrl } from '../../wings/identity/links/links.service.js';
import { inServers, type SlashCommand } from './command.js';
import { describeAge } from './describe.js';

/**
 * `/whois member:`: the member's VRChat account, for those who may view the server in the dashboard
 * (ViewGuild or above, the same check as the Members tab); others are refused with the reason.
 */
export const whoisCommand: SlashCommand = {
  definition: {
    name: 'whois',
    description: "Show a member's linked VRChat account",
    options: [
      {
        type: ApplicationCommandOptionType.User,
        name: 'member',
        description: 'The member to look up',
        required: true,
      },
    ],
    ...inServers,
  },
  // It may ask Discord for the member (no member mirror, or one not filled yet), which can be slow.
  deferred: true,
  async run(interaction, ctx) {
    await requireGuildPermission(ctx, userActor(interaction.user.id), interaction.guildId, 'ViewGuild');
    const target = interaction.options.getUser('member', true);
    if (!(await ctx.discord.getMember(interaction.guildId, target.id))) return MEMBER_NOT_FOUND;
    const link = await findLinkByDiscord(ctx.db, target.id);
    const name = `@${inertText(target.username)}`;
    if (!link) return `${name} has not linked a VRChat account.`;
    const ownership = link.isVerified ? 'Ownership verified.' : 'Ownership not verified.';
    return (
      `${name} is ${inertText(link.vrchatName)} on VRChat (${profileUrl(ctx, link.vrcUserId)}). ` +
      `${ownership} ${describeAge(link)}`
    );
  },
};
