import type { FastifyInstance } from 'fastify';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The hostname and port of a Host header (`localhost:3000`, `[::1]:3000`), or null if it is not one. */
function parseHost(host: string | undefined): { name: string; port: string } | null {
  if (!host) return null;
  try {
    const url = new URL(`http://${host}`);
    return { name: url.hostname.toLowerCase(), port: url.port };
  } catch {
    return null;
  }
}

/**
 * Where a page request that came in on another loopback name should go, or null. The server prints
 * PUBLIC_URL (say http://127.0.0.1:3000); someone who types localhost:3000 instead gets a page whose
 * login cookie is set for one name and read back on the other, and the login fails as "took too long".
 * Safe by construction: only a GET or HEAD page request (never /api), only when both names are loopback
 * names of the same port, and only ever to PUBLIC_URL itself, so nothing a request says picks the target.
 */
export function loopbackRedirect(
  publicUrl: string,
  req: { method: string; url: string; host: string | undefined },
): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  if (!req.url.startsWith('/') || req.url.startsWith('/api/') || req.url === '/api') return null;
  const pub = new URL(publicUrl);
  const from = parseHost(req.host);
  const to = { name: pub.hostname.toLowerCase(), port: pub.port };
  if (!from || !LOOPBACK.has(from.name) || !LOOPBACK.has(to.name)) return null;
  if (from.name === to.name || from.port !== to.port) return null;
  return `${pub.origin}${req.url}`;
}

/** Sends a page request on the other loopback name to the same path on PUBLIC_URL (see loopbackRedirect). */
export function registerLoopbackRedirect(app: FastifyInstance, publicUrl: string): void {
  // Only a loopback PUBLIC_URL has another loopback name to redirect from: elsewhere no hook at all.
  if (!LOOPBACK.has(new URL(publicUrl).hostname.toLowerCase())) return;
  app.addHook('onRequest', (req, reply, done) => {
    const location = loopbackRedirect(publicUrl, {
      method: req.method,
      url: req.url,
      host: req.headers.host,
    });
    if (location) {
      reply.redirect(location, 302);
      return;
    }
    done();
  });
}
