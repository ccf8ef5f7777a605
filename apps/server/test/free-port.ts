import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now, for a process started next to listen on. It comes from below the
 * kernel's ephemeral range: a port the OS picked for `listen(0)` is an ephemeral one, and between this check and the
 * child's bind any outgoing connection on the machine (a database pool, a fetch) may be given it (a CI once failed
 * on "Port … is in use" so). Each process starts at its own offset and never hands out a port twice, so test
 * workers asking at once do not pick the same one.
 */
export async function freePort(): Promise<number> {
  const band = portBand();
  if (!band) return osPickedPort();
  const size = band.end - band.start;
  for (let tries = 0; tries < 200; tries++) {
    const port = band.start + ((offset + next++) % size);
    if (await canListen(port)) return port;
  }
  return osPickedPort();
}

const offset = (process.pid * 7919 + Math.floor(Math.random() * 1000)) % 1_000_000;
let next = 0;

/** The ports below the ephemeral range, from 10000 (none where the range starts too low to leave a band). */
function portBand(): { start: number; end: number } | null {
  let ephemeralStart = 32768;
  try {
    ephemeralStart = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
  } catch {
    // Not Linux: its defaults (macOS 49152, Windows 49152) leave the same band free.
  }
  return ephemeralStart > 12_000 ? { start: 10_000, end: ephemeralStart } : null;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function osPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
