import { demo, type RunningSimulator, startSimulator } from '@vrclink/simulator';
import type { SimulatorEndpoints } from './config.js';

/** Starts the Discord + VRChat simulator for demo mode and answers where it is and how to log in. */
export async function startDemoSimulator(
  port: number,
): Promise<{ sim: RunningSimulator; endpoints: SimulatorEndpoints }> {
  const sim = await startSimulator({ port, host: '127.0.0.1' });
  return {
    sim,
    endpoints: {
      url: sim.url,
      discord: {
        clientId: demo.discordApp.clientId,
        clientSecret: demo.discordApp.clientSecret,
        botToken: demo.discordApp.botToken,
      },
      vrchat: { ...demo.vrchatBot },
      adminDiscordUserId: demo.adminDiscordUserId,
    },
  };
}
