import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { runInteractive } from '../../platforms/vrchat/interactive.js';
import type { SlashCommand } from './command.js';
import { commandErrorMessage } from './errors.js';

export const UNKNOWN_COMMAND = 'This command is not available any more. Try again in a minute.';
export const SERVERS_ONLY = 'Use this command in a server the bot is in.';

/** Replies, or fills in the deferred reply; every answer is ephemeral (only the member who asked sees it). */
async function answer(interaction: ChatInputCommandInteraction, content: string): Promise<void> {
  // Names in it are inert already (inertText); whatever slipped through pings nobody.
  const allowedMentions = { parse: [] };
  if (interaction.deferred || interaction.replied) await interaction.editReply({ content, allowedMentions });
  else await interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions });
}

/**
 * Runs one slash command as the member who used it (their permissions, their name in the audit log).
 * A command that calls a platform is acknowledged first, within Discord's 3 seconds; whatever fails is
 * answered with a sentence, never with silence ("The application did not respond").
 */
export async function dispatchCommand(
  interaction: ChatInputCommandInteraction,
  ctx: AppContext,
  commands: readonly SlashCommand[],
): Promise<void> {
  const context = {
    command: interaction.commandName,
    userId: interaction.user.id,
    guildId: interaction.guildId,
  };
  try {
    const command = commands.find((c) => c.definition.name === interaction.commandName);
    if (!command) return await answer(interaction, UNKNOWN_COMMAND);
    if (!interaction.inGuild()) return await answer(interaction, SERVERS_ONLY);
    if (command.deferred) await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    // Someone is waiting for the answer: VRChat calls give up at the website's interactive deadline
    // (about 10 s) instead of waiting out retries, and the member is told why.
    await answer(
      interaction,
      await runInteractive(() => command.run(interaction, ctx), `discord:${interaction.user.id}`),
    );
  } catch (err) {
    try {
      await answer(interaction, commandErrorMessage(err, ctx.log, context));
    } catch (replyErr) {
      ctx.log.warn({ err: replyErr, ...context }, 'Command: could not answer with the error');
    }
  }
}
