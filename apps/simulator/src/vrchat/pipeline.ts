import type { IncomingMessage } from 'node:http';
import type { WebSocketServer } from 'ws';
import type { VrchatState } from './state.js';

/**
 * The pipeline WebSocket (wss://pipeline.vrchat.cloud/?authToken=…). The SDK connects after logging in
 * and only logs what happens here, so the simulator accepts live sessions and keeps them open; it does
 * not push notifications (yet). Unknown tokens get the real pipeline's error and a close.
 */
export function registerPipeline(wss: WebSocketServer, state: VrchatState): void {
  wss.on('connection', (ws, req: IncomingMessage) => {
    const token = new URL(req.url ?? '/', 'http://pipeline.local').searchParams.get('authToken');
    const session = token ? state.sessions.get(token) : undefined;
    if (!session || session.expiresAt <= Date.now()) {
      ws.send(JSON.stringify({ err: "authToken doesn't correspond with an active session" }));
      ws.close(1008, 'invalid authToken');
    }
  });
}
