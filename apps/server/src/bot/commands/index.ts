import type { SlashCommand } from './command.js';
import { linkCommand } from './link.js';
import { loginCommand } from './login.js';
import { syncCommand } from './sync.js';
import { verifyCommand } from './verify.js';
import { whoisCommand } from './whois.js';

/** Every slash command the bot registers (globally) and answers. */
export const slashCommands: readonly SlashCommand[] = [
  loginCommand,
  linkCommand,
  whoisCommand,
  syncCommand,
  verifyCommand,
];
