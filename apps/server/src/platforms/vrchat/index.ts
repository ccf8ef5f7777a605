export { VrchatError } from './errors.js';
export type { PacerOptions } from './pacer.js';
export { createVrchatPlatform, type VrchatPlatform, type VrchatPlatformOptions } from './platform.js';
export { createVrchatPool, type VrchatPool } from './pool.js';
export { dbSessionStore, memorySessionStore, type SessionStore, vrchatSessionName } from './session-store.js';
export type { VrchatState, VrchatStatus } from './status.js';
export type { VrchatPacerSettings } from './transport.js';
