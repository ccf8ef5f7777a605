import { type Client, Events, type Interaction } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { dispatchCommand } from '../commands/dispatch.js';
import { slashCommands } from '../commands/index.js';

/** A member used a slash command: it runs as them and is always answered. */
export function onInteractionCreate(client: Client, ctx: AppContext): () => void {
  const listener = (interaction: Interaction) => {
    if (!interaction.isChatInputCommand()) return;
    dispatchCommand(interaction, ctx, slashCommands).catch((err) =>
      ctx.log.error({ err, command: interaction.commandName }, 'Command: not handled'),
    );
  };
  client.on(Events.InteractionCreate, listener);
  return () => client.off(Events.InteractionCreate, listener);
}
