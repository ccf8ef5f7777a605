export * from './audit.js';
export * from './cooldowns.js';
export * from './guilds.js';
export * from './links.js';
export * from './platform.js';
export * from './sdk.js';
export * from './users.js';
