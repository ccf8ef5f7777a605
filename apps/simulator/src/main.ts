import { startSimulator } from './app.js';

const port = Number(process.env.SIMULATOR_PORT ?? 4010);
// Benches: every platform window N times shorter (SimulatorOptions.timeScale); the product then sets
// VRCHAT_TIME_SCALE to the same N so its pacing matches.
const timeScale = Number(process.env.SIMULATOR_TIME_SCALE || 1);
if (!Number.isFinite(timeScale) || timeScale <= 0) {
  process.stderr.write(
    `SIMULATOR_TIME_SCALE must be a positive number, not "${process.env.SIMULATOR_TIME_SCALE}".\n`,
  );
  process.exit(1);
}
const sim = await startSimulator({ port, host: '127.0.0.1', timeScale });
process.stdout.write(
  `Simulator (Discord + VRChat) listening on ${sim.url}${timeScale === 1 ? '' : ` (time ${timeScale}x faster)`}\n`,
);
