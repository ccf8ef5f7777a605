export { type RunningSimulator, startSimulator } from './app.js';
export type { SimulatorOptions } from './context.js';
export * as demo from './demo.js';
