import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { discordApp } from '../demo.js';
import { MemberRequests, parseMembersRequest } from './gateway-members.js';
import { EVENT_INTENT, guildCreatePayload, readyPayload } from './gateway-payloads.js';
import { guildsOfShard, IdentifyLimits, parseShard, shardOwns } from './gateway-shards.js';
import { PRIVILEGED_INTENTS, VALID_INTENTS } from './intents.js';
import type { DiscordState, DispatchEvent } from './state.js';

const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Discord's gateway close codes the simulator uses. */
export const Close = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  RateLimited: 4008,
  SessionTimedOut: 4009,
  InvalidShard: 4010,
  ShardingRequired: 4011,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

/** Events kept per session for RESUME; older ones are gone and force a fresh IDENTIFY. */
const BUFFER_LIMIT = 1000;

interface Session {
  id: string;
  intents: number;
  /** `[shard_id, num_shards]` from IDENTIFY (`[0, 1]` when it sent none). */
  shard: [number, number];
  largeThreshold: number;
  seq: number;
  buffer: { s: number; frame: string }[];
  ws: WebSocket | null;
}

export interface GatewayOptions {
  heartbeatMs: number;
  url: () => string;
}

const validToken = (token: unknown) =>
  token === discordApp.botToken || token === `Bot ${discordApp.botToken}`;

/**
 * The bot gateway: HELLO / IDENTIFY / READY / GUILD_CREATE, heartbeats, RESUME with replay, member
 * chunking (op 8), and fan-out of every state change from the in-process event bus.
 */
export class Gateway {
  readonly sessions = new Map<string, Session>();
  /** Connections closed because another connection resumed their session: two clients on one session. */
  resumedElsewhere = 0;
  /** Connections closed with 4008 for sending more than the send limit allows. */
  sendLimitClosures = 0;
  private readonly members: MemberRequests;
  /** Session start limit and identify buckets (max_concurrency). */
  readonly identifyLimits: IdentifyLimits;

  constructor(
    private readonly state: DiscordState,
    wss: WebSocketServer,
    private readonly opts: GatewayOptions,
  ) {
    this.members = new MemberRequests(state);
    this.identifyLimits = new IdentifyLimits(state);
    wss.on('connection', (ws: WebSocket, req: IncomingMessage) => this.onConnection(ws, req));
    state.bus.on('dispatch', (event: DispatchEvent) => this.fanOut(event));
  }

  /** Connected sessions, for the control API. */
  connected(): Session[] {
    return [...this.sessions.values()].filter((s) => s.ws !== null);
  }

  /** Connected sessions that receive this guild's events (every shard's owner of it). */
  connectedFor(guildId: string | undefined): Session[] {
    return this.connected().filter((s) => shardOwns(s.shard, guildId));
  }

  /** Asks every client to reconnect (op 7), as Discord does before moving a session. */
  requestReconnect(): number {
    const live = this.connected();
    for (const s of live) s.ws!.send(JSON.stringify({ op: Op.Reconnect, d: null, s: null, t: null }));
    return live.length;
  }

  /** Drops every connection with `code`; 4000-range codes other than the fatal ones let clients resume. */
  disconnectAll(code: number): number {
    const live = this.connected();
    for (const s of live) s.ws!.close(code, 'Closed by the simulator control API');
    return live.length;
  }

  /**
   * Invalidates every session as Discord may at any time: op 9 Invalid Session with `d: false` (not
   * resumable) on the open connection, and the session is forgotten, so the client must IDENTIFY again and
   * gets a new session (READY); events until then are not delivered to it. The world is not reset.
   */
  invalidateAll(): number {
    const live = this.connected();
    for (const s of live) {
      this.sessions.delete(s.id);
      s.ws!.send(JSON.stringify({ op: Op.InvalidSession, d: false, s: null, t: null }));
    }
    return live.length;
  }

  /**
   * Forgets every session and drops the sockets: clients try to RESUME, get op 9 and IDENTIFY afresh
   * (discord.js then waits out its 5 s identify throttle, as with real Discord).
   */
  resetSessions(): void {
    const live = this.connected();
    this.sessions.clear();
    this.members.reset();
    this.identifyLimits.reset();
    for (const s of live) s.ws!.close(Close.UnknownError, 'Simulator reset');
  }

  /**
   * What Discord does when a privileged intent is switched off in the portal: every session of the
   * app is invalidated and closed with 4003, whether it used the intent or not (discord-api-docs#6970).
   * Clients reconnect; a RESUME gets op 9, an IDENTIFY still asking for the intent gets 4014.
   */
  invalidateSessions(): number {
    const live = this.connected();
    this.sessions.clear();
    for (const s of live) s.ws!.close(Close.NotAuthenticated, 'Not authenticated.');
    return live.length;
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    if ((query.get('v') ?? '10') !== '10') {
      ws.close(Close.InvalidApiVersion, 'Invalid API version');
      return;
    }
    if ((query.get('encoding') ?? 'json') !== 'json') {
      ws.close(Close.DecodeError, 'Only JSON encoding is simulated');
      return;
    }
    let session: Session | null = null;
    let lastBeat = Date.now();
    // Discord: 120 payloads per connection per 60 s, every opcode counted; past it the connection is closed.
    const sent = { windowStart: Date.now(), count: 0 };
    const send = (payload: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(payload));
    // A client that stops heartbeating is a zombie; Discord drops it after about one missed beat.
    const watchdog = setInterval(() => {
      if (Date.now() - lastBeat > this.opts.heartbeatMs * 2 + 1000)
        ws.close(Close.SessionTimedOut, 'Session timed out');
    }, this.opts.heartbeatMs);
    ws.on('close', () => {
      clearInterval(watchdog);
      if (session?.ws === ws) session.ws = null;
    });
    send({
      op: Op.Hello,
      d: { heartbeat_interval: this.opts.heartbeatMs, _trace: ['["gateway-simulator"]'] },
      s: null,
      t: null,
    });

    ws.on('message', (raw) => {
      const now = Date.now();
      if (now - sent.windowStart >= this.state.config.gatewaySendWindowMs / this.state.timeScale)
        Object.assign(sent, { windowStart: now, count: 0 });
      if (++sent.count > this.state.config.gatewaySendLimit) {
        this.sendLimitClosures++;
        return ws.close(Close.RateLimited, 'Rate limited.');
      }
      let msg: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        msg = JSON.parse(raw.toString());
      } catch {
        return ws.close(Close.DecodeError, 'Error while decoding payload.');
      }
      const d = (msg.d ?? {}) as Record<string, unknown>;
      switch (msg.op) {
        case Op.Heartbeat:
          lastBeat = Date.now();
          return send({ op: Op.HeartbeatAck, d: null, s: null, t: null });
        case Op.Identify:
          if (session) return ws.close(Close.AlreadyAuthenticated, 'Already authenticated.');
          session = this.identify(ws, d);
          return;
        case Op.Resume:
          if (session) return ws.close(Close.AlreadyAuthenticated, 'Already authenticated.');
          session = this.resume(ws, d);
          return;
        case Op.RequestGuildMembers:
          if (!session) return ws.close(Close.NotAuthenticated, 'Not authenticated.');
          return this.requestMembers(ws, session, d);
        case Op.PresenceUpdate:
        case Op.VoiceStateUpdate:
          if (!session) return ws.close(Close.NotAuthenticated, 'Not authenticated.');
          return;
        default:
          return ws.close(Close.UnknownOpcode, 'Unknown opcode.');
      }
    });
  }

  private identify(ws: WebSocket, d: Record<string, unknown>): Session | null {
    if (!validToken(d.token)) {
      ws.close(Close.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const intents = d.intents;
    if (typeof intents !== 'number' || (intents & ~VALID_INTENTS) !== 0) {
      ws.close(Close.InvalidIntents, 'Invalid intent(s).');
      return null;
    }
    if (intents & PRIVILEGED_INTENTS & ~this.state.config.privilegedIntents) {
      ws.close(Close.DisallowedIntents, 'Disallowed intent(s).');
      return null;
    }
    const shard = parseShard(d.shard);
    if (!shard) {
      ws.close(Close.InvalidShard, 'Invalid shard.');
      return null;
    }
    const guilds = guildsOfShard(this.state, shard);
    if (guilds.length > this.state.config.maxGuildsPerShard) {
      ws.close(Close.ShardingRequired, 'Sharding required.');
      return null;
    }
    const verdict = this.identifyLimits.take(shard[0]);
    if (verdict === 'too-soon') {
      // Discord: an IDENTIFY past max_concurrency per 5 s gets op 9 and starts no session.
      ws.send(JSON.stringify({ op: Op.InvalidSession, d: false, s: null, t: null }));
      return null;
    }
    if (verdict === 'limit-exhausted') {
      // Discord terminates every session of the bot and resets its token.
      for (const s of this.connected()) s.ws!.close(Close.AuthenticationFailed, 'Authentication failed.');
      this.sessions.clear();
      ws.close(Close.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      intents,
      shard,
      // Discord's range is 50–250 (default 50); anything else is clamped or ignored.
      largeThreshold:
        typeof d.large_threshold === 'number' && Number.isFinite(d.large_threshold)
          ? Math.min(250, Math.max(50, Math.floor(d.large_threshold)))
          : 50,
      seq: 0,
      buffer: [],
      ws,
    };
    this.sessions.set(session.id, session);
    this.pruneSessions();
    this.send(session, 'READY', readyPayload(guilds, this.state, session.id, this.opts.url(), shard));
    for (const guild of guilds)
      this.send(
        session,
        'GUILD_CREATE',
        guildCreatePayload(this.state, guild, intents, session.largeThreshold),
      );
    return session;
  }

  private resume(ws: WebSocket, d: Record<string, unknown>): Session | null {
    if (!validToken(d.token)) {
      ws.close(Close.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const session = this.sessions.get(String(d.session_id));
    const seq = Number(d.seq ?? 0);
    const oldest = session?.buffer[0]?.s ?? (session ? session.seq + 1 : 0);
    if (!session || seq > session.seq || seq + 1 < oldest) {
      // Not resumable: the client must wait and IDENTIFY again.
      ws.send(JSON.stringify({ op: Op.InvalidSession, d: false, s: null, t: null }));
      return null;
    }
    if (session.ws && session.ws !== ws) {
      this.resumedElsewhere++;
      session.ws.close(Close.UnknownError, 'Session resumed elsewhere');
    }
    session.ws = ws;
    for (const entry of session.buffer) if (entry.s > seq) ws.send(entry.frame);
    this.send(session, 'RESUMED', { _trace: ['["gateway-simulator"]'] });
    return session;
  }

  /**
   * Op 8. An invalid payload (a list of guild ids, neither query nor user_ids, a bad limit) closes
   * the connection with 4001, which Discord documents as "an invalid payload for an opcode".
   */
  private requestMembers(ws: WebSocket, session: Session, d: Record<string, unknown>): void {
    const request = parseMembersRequest(d);
    if (!request) {
      ws.close(Close.UnknownOpcode, 'Invalid payload.');
      return;
    }
    // A guild of another shard is unknown to this session: no answer, as for a guild the bot is not in.
    if (!shardOwns(session.shard, request.guildId)) return;
    const requester = {
      intents: session.intents,
      dispatch: (t: string, payload: unknown) => this.send(session, t, payload),
      alive: () => this.sessions.get(session.id) === session,
    };
    // A session gone while chunks stream gets no more of them; the simulator goes on.
    this.members.answer(requester, request).catch(() => {});
  }

  private fanOut(event: DispatchEvent): void {
    const guild = event.guildId ? this.state.guilds.get(event.guildId) : undefined;
    if (event.guildId && (!guild || !this.state.isBotIn(guild))) return;
    const needed = EVENT_INTENT[event.t] ?? 0;
    // The bot's own member updates arrive whatever the intents (as on Discord).
    const selfUpdate =
      event.t === 'GUILD_MEMBER_UPDATE' &&
      (event.d as { user?: { id?: string } }).user?.id === discordApp.botUserId;
    for (const session of this.sessions.values()) {
      if (!shardOwns(session.shard, event.guildId)) continue;
      if (needed && !selfUpdate && (session.intents & needed) === 0) continue;
      const d =
        event.t === 'GUILD_CREATE' && guild
          ? guildCreatePayload(this.state, guild, session.intents, session.largeThreshold)
          : event.d;
      this.send(session, event.t, d);
    }
  }

  /** Numbers, buffers (for RESUME) and, when connected, sends a dispatch. */
  private send(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const frame = JSON.stringify({ op: Op.Dispatch, t, s: session.seq, d });
    session.buffer.push({ s: session.seq, frame });
    if (session.buffer.length > BUFFER_LIMIT) session.buffer.shift();
    if (session.ws && session.ws.readyState === session.ws.OPEN) session.ws.send(frame);
  }

  /** Disconnected sessions linger for RESUME; keep only a handful so memory stays bounded. */
  private pruneSessions(): void {
    const idle = [...this.sessions.values()].filter((s) => s.ws === null);
    for (const s of idle.slice(0, Math.max(0, idle.length - 10))) this.sessions.delete(s.id);
  }
}
