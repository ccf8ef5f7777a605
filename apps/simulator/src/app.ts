import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import type { SimContext, SimulatorOptions } from './context.js';
import { registerControl } from './control.js';
import { registerDiscord } from './discord/index.js';
import { FaultStore } from './faults.js';
import { registerVrchat } from './vrchat/index.js';

export interface RunningSimulator {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds and starts the Discord + VRChat simulator on one port (0 = any free port). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  // A simulator owes nobody a graceful goodbye: closing drops every connection, in flight or not.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let closing = false;
  let baseUrl = '';
  const ctx: SimContext = { baseUrl: () => baseUrl, faults: new FaultStore(), options };
  // WebSocket endpoints (Discord gateway, VRChat pipeline) attach their own noServer servers here.
  const sockets = new Map<string, WebSocketServer>();
  app.server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0];
    const wss = sockets.get(path);
    // A client reconnecting while the simulator closes would keep it open for ever.
    if (!wss || closing) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const addSocket = (path: string) => {
    const wss = new WebSocketServer({ noServer: true });
    sockets.set(path, wss);
    return wss;
  };
  await registerDiscord(app, ctx, addSocket);
  await registerVrchat(app, ctx, addSocket);
  await registerControl(app, ctx);
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : options.port;
  baseUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: baseUrl,
    app,
    async close() {
      closing = true;
      for (const wss of sockets.values()) {
        for (const client of wss.clients) client.terminate();
        wss.close();
      }
      await app.close();
    },
  };
}
