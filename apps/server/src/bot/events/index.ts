import type { Client } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { onGuildBanAdd } from './guildBanAdd.js';
import { onGuildDelete } from './guildDelete.js';
import { onGuildMemberAdd } from './guildMemberAdd.js';
import { onGuildMemberRemove } from './guildMemberRemove.js';
import { onGuildMemberUpdate } from './guildMemberUpdate.js';
import { onGuildRoleDelete } from './guildRoleDelete.js';
import { onGuildRoleUpdate } from './guildRoleUpdate.js';
import { onGuildSnapshot } from './guildSnapshot.js';
import { onInteractionCreate } from './interactionCreate.js';
import { onReady } from './ready.js';

/** Subscribes the bot's gateway event handlers; answers a function that unsubscribes them all. */
export function registerBotEvents(client: Client, ctx: AppContext): () => void {
  const off = [
    onGuildMemberAdd(client, ctx),
    onGuildMemberUpdate(client, ctx),
    onGuildMemberRemove(client, ctx),
    onGuildRoleDelete(client, ctx),
    onGuildRoleUpdate(client, ctx),
    onGuildBanAdd(client, ctx),
    onGuildDelete(client, ctx),
    onGuildSnapshot(client, ctx),
    onReady(client, ctx),
    onInteractionCreate(client, ctx),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
  };
}
