import {
  demo,
  LAX_DISCORD_RATE,
  LAX_VRCHAT_RATE,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '@vrclink/simulator';
import type { SimulatorEndpoints } from './kernel/config.js';

const endpointsAt = (url: string): SimulatorEndpoints => ({
  url,
  discord: {
    clientId: demo.discordApp.clientId,
    clientSecret: demo.discordApp.clientSecret,
    botToken: demo.discordApp.botToken,
  },
  vrchat: { ...demo.vrchatBot },
  adminDiscordUserId: demo.adminDiscordUserId,
});

/** True when a simulator answers its control API at `url`. */
async function isSimulator(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/control/discord/state`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** Limits no test about something else waits on (SIMULATOR_LIMITS=lax, and the tests' simulator). */
export const LAX_LIMITS: SimulatorOptions = { vrchatRate: LAX_VRCHAT_RATE, discordRate: LAX_DISCORD_RATE };

/** A simulator of this process's own (tests use port 0 for a fresh one each, some with their own options). */
export async function startOwnSimulator(
  port: number,
  options: Omit<SimulatorOptions, 'port' | 'host'> = {},
): Promise<{ sim: RunningSimulator; endpoints: SimulatorEndpoints }> {
  const sim = await startSimulator({ ...options, port, host: '127.0.0.1' });
  return { sim, endpoints: endpointsAt(sim.url) };
}

/**
 * The Discord + VRChat simulator for demo mode. Several processes share one simulated world: a process
 * uses the simulator at `SIMULATOR_URL`, or one already running on the port, and starts its own only
 * when there is none (then it also stops it at shutdown).
 */
export async function startDemoSimulator(
  port: number,
  opts: { url?: string; lax?: boolean } = {},
): Promise<{ sim?: RunningSimulator; endpoints: SimulatorEndpoints }> {
  const started = await demoSimulator(port, opts);
  // Demo mode serves groups with two bot accounts (the simulator seeds three); tests choose their own.
  return { ...started, endpoints: { ...started.endpoints, vrchatAccounts: demoMoreAccounts() } };
}

/** The demo's bot accounts after the first. */
const demoMoreAccounts = () => demo.vrchatBots.slice(1, 2).map((a) => ({ ...a }));

async function demoSimulator(
  port: number,
  opts: { url?: string; lax?: boolean },
): Promise<{ sim?: RunningSimulator; endpoints: SimulatorEndpoints }> {
  if (opts.url) return { endpoints: endpointsAt(opts.url.replace(/\/$/, '')) };
  const existing = port > 0 ? `http://127.0.0.1:${port}` : undefined;
  if (existing && (await isSimulator(existing))) return { endpoints: endpointsAt(existing) };
  try {
    return await startOwnSimulator(port, opts.lax ? LAX_LIMITS : {});
  } catch (err) {
    // Another process started one at the same moment: use it.
    if (existing && (err as NodeJS.ErrnoException).code === 'EADDRINUSE' && (await isSimulator(existing)))
      return { endpoints: endpointsAt(existing) };
    throw err;
  }
}

/** The Discord OAuth2 redirect URI of a site at `publicUrl` (registered in the developer portal; docs/deploy.md). */
export const loginCallbackUrl = (publicUrl: string) =>
  `${publicUrl.replace(/\/$/, '')}/discord/login/callback`;

/**
 * Registers this site's login callback for the simulated Discord application, as an operator registers
 * `<PUBLIC_URL>/discord/login/callback` in the developer portal: the simulator refuses any other, as Discord does.
 */
export async function registerLoginRedirect(simulatorUrl: string, publicUrl: string): Promise<void> {
  const res = await fetch(`${simulatorUrl}/control/discord/application/redirect-uris`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: loginCallbackUrl(publicUrl) }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok)
    throw new Error(`The simulator refused the login redirect (${res.status}): ${await res.text()}`);
}
