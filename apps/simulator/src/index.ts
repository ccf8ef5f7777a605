export { type RunningSimulator, startSimulator } from './app.js';
export type { SimulatorOptions } from './context.js';
export * as demo from './demo.js';
export { LAX_DISCORD_RATE } from './discord/ratelimit.js';
export { seedGuildIds, seedUserIds } from './discord/seed.js';
export { LAX_VRCHAT_RATE } from './vrchat/ratelimit.js';
export { vrchatAccounts, vrchatGroupIds, vrchatRoleIds, vrchatSeed } from './vrchat/seed.js';
