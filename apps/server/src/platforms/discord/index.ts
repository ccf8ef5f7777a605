export { createDiscordBot, type DiscordBot, type DiscordBotOptions } from './bot.js';
export { DiscordPermissionError } from './errors.js';
export { DiscordGrantError, type DiscordIdentity, DiscordOAuth, type DiscordTokens } from './oauth.js';
