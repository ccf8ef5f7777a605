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
  readonly opened: Promise<void>;

  constructor(url: string) {
    this.ws = new WebSocket(`${url}?v=10&encoding=json`);
    this.ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    // Tests terminate sockets that may still be connecting; that is not a failure.
    this.ws.on('error', () => {});
    this.ws.on('close', (code) => {
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
