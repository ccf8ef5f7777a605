import {
  ApplicationIntegrationType,
  type ChatInputCommandInteraction,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { AppContext } from '../../kernel/context.js';

/** A command used in a server (the interaction carries its guild id). */
export type GuildCommandInteraction = ChatInputCommandInteraction<'cached' | 'raw'>;

/** One slash command: its definition as Discord takes it, and what it answers. */
export interface SlashCommand {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /**
   * It may call Discord or VRChat (anything that may be slow): acknowledged at once ("thinking…") and the answer
   * edited in, since Discord drops an interaction not acknowledged within 3 seconds.
   */
  deferred: boolean;
  /** Answers the text of the (ephemeral) reply; a thrown error is answered as a sentence by the dispatcher. */
  run(interaction: GuildCommandInteraction, ctx: AppContext): Promise<string>;
}

/** Every command is a server command: installed with the bot, used in a server's channels. */
export const inServers = {
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
} satisfies Partial<RESTPostAPIChatInputApplicationCommandsJSONBody>;
