import type { Client } from 'discord.js';
import type { AppContext } from '../../context.js';
import { onGuildMemberRemove } from './guildMemberRemove.js';
import { onGuildMemberUpdate } from './guildMemberUpdate.js';
import { onReady } from './ready.js';

/** Subscribes the bot's gateway event handlers; answers a function that unsubscribes them all. */
export function registerBotEvents(client: Client, ctx: AppContext): () => void {
  const off = [onGuildMemberUpdate(client, ctx), onGuildMemberRemove(client, ctx), onReady(client, ctx)];
  return () => {
    for (const unsubscribe of off) unsubscribe();
  };
}
