import { startSimulator } from './app.js';

const port = Number(process.env.SIMULATOR_PORT ?? 4010);
const sim = await startSimulator({ port, host: '127.0.0.1' });
process.stdout.write(`Simulator (Discord + VRChat) listening on ${sim.url}\n`);
