import { WebSocket } from 'ws';
import { discordApp } from '../src/demo.js';
import { waitFor } from './discord-helpers.js';

export interface Frame {
  op: number;
  t: string | null;
  s: number | null;
  d: Record<string, unknown> & unknown;
}

/** A bare gateway client recording every frame and the close code. */
export class RawGateway {
  frames: Frame[] = [];
  closeCode: number | null = null;
  readonly ws: WebSocket;
  private beat: NodeJS.Timeout | undefined;
  readonly opened: Promise<void>;

  constructor(url: string) {
    this.ws = new WebSocket(`${url}?v=10&encoding=json`);
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      // Heartbeats as a client must (the simulator drops a silent one as Discord does), for as long as it is
      // open: a long test (100,000 members streaming on a loaded machine) stays connected.
      if (frame.op === 10 && !this.beat) {
        const interval = (frame.d as { heartbeat_interval: number }).heartbeat_interval;
        this.beat = setInterval(() => {
          if (this.ws.readyState === WebSocket.OPEN) this.send(1, null);
        }, interval);
        this.beat.unref();
      }
    });
    // Tests terminate sockets that may still be connecting; that is not a failure.
    this.ws.on('error', () => {});
    this.ws.on('close', (code) => {
      clearInterval(this.beat);
      this.closeCode = code;
    });
    this.opened = new Promise((resolve) => this.ws.once('open', () => resolve()));
  }

  send(op: number, d: unknown) {
    this.ws.send(JSON.stringify({ op, d }));
  }

  identify(intents: number, token: string = discordApp.botToken, extra: Record<string, unknown> = {}) {
    this.send(2, { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' }, ...extra });
  }

  dispatches(t: string) {
    return this.frames.filter((f) => f.op === 0 && f.t === t);
  }

  next(pred: (f: Frame) => boolean) {
    return waitFor(() => this.frames.find(pred));
  }

  closed() {
    return waitFor(() => this.closeCode);
  }

  /** Every GUILD_MEMBERS_CHUNK answering `nonce`, once `chunk_count` of them arrived. */
  chunks(nonce: string, timeoutMs = 10_000) {
    return waitFor(() => {
      const got = this.dispatches('GUILD_MEMBERS_CHUNK').filter((f) => f.d.nonce === nonce);
      return got.length > 0 && got.length === got[0].d.chunk_count ? got : null;
    }, timeoutMs);
  }
}
