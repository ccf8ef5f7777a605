import { type APIApplicationCommand, type REST, Routes } from 'discord.js';
import { botActor } from '../../kernel/actor.js';
import { audit } from '../../kernel/audit.js';
import type { AppContext } from '../../kernel/context.js';
import type { SlashCommand } from './command.js';
import { sameCommands } from './same-commands.js';

/**
 * Registers the slash commands globally, only when Discord holds other definitions: a restart costs one
 * GET, and Discord's daily limit on command creations is never spent on commands it already has.
 */
export async function registerCommands(
  ctx: AppContext,
  rest: REST,
  commands: readonly SlashCommand[],
): Promise<'registered' | 'unchanged'> {
  const route = Routes.applicationCommands(ctx.config.discord.clientId);
  const registered = (await rest.get(route)) as APIApplicationCommand[];
  const wanted = commands.map((c) => c.definition);
  if (sameCommands(registered, wanted)) return 'unchanged';
  await rest.put(route, { body: wanted });
  await audit(ctx.db, {
    action: 'bot.commands_registered',
    actor: botActor,
    details: { commands: wanted.map((c) => c.name) },
  });
  return 'registered';
}
