import {
  Code, PlayfieldError, realtime, RealtimeCloseCode, takeToken, utf8Length, type RateRule, type RateState, type ServerEvent,
} from "@playfield/core";
import { authorize } from "../rpc/authorize.js";
import type { ServerDeps } from "../server-deps.js";
import { presenceFeed } from "../services/presence/feed.js";
import { defaultMessageHandlers, handleFrame, type HandledFrame, type MessageHandlers } from "./message-handlers.js";
import { recheckSessions, type RecheckedSession } from "./session-recheck.js";

/*
 * One realtime connection's protocol, apart from any WebSocket library:
 * the first message authenticates (`{"type":"auth","token"}` → `ready`),
 * then client frames, each read against the core's schemas first
 * (`realtime.readClientFrame`), go to handlers by `type` and the hub's
 * events go out.
 * A connection's frames are handled one at a time, in the order they came:
 * a frame's handler starts once the previous one has finished, so answers
 * and effects keep the client's order (docs/realtime.md, "Order"). Each
 * connection has its own queue: a slow handler holds up only its own.
 * A client that does not keep up is disconnected rather than buffered
 * without bound.
 */

/** What the endpoint needs of a socket; the Node adapter fills it from `ws`. */
export interface RealtimeSocket {
  /** Sends a text frame; `done` runs once the frame has left the process (or could not). */
  send(text: string, done: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  /** Bytes accepted by `send` and not yet written out. */
  readonly bufferedAmount: number;
}

/** Options of `createRealtimeEndpoint`; each has a documented default (docs/realtime.md). */
export interface RealtimeEndpointOptions {
  /** How long a new connection may wait before `auth`. Default 10 000 ms. */
  authTimeoutMs?: number;
  /** Unsent bytes over which a connection is dropped. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** Messages sent and not yet written out over which a connection is dropped. Default 256. */
  maxPendingMessages?: number;
  /** Client message handlers by `type`. Default: `defaultMessageHandlers`. */
  handlers?: MessageHandlers;
  /**
   * Client frames per connection, any type: a burst, then one every intervalMs; over it the connection closes (4029).
   * At most `burst` frames wait for the one being handled; one more closes the connection too (4029).
   * Default 100 at once, then 50 a second; null: no rate limit, and at most 100 frames waiting.
   */
  maxFrames?: RateRule | null;
}

/** One connection as the adapter drives it. */
export interface RealtimePeer {
  /** A text frame arrived. */
  receive(text: string): void;
  /** The socket closed: leaves the hub. */
  closed(): void;
  /** The user, once authenticated. */
  readonly userId: string | null;
  /** What the connection's token stands on, while it is authenticated and open (null before `ready` and once closed). */
  readonly session: RecheckedSession | null;
  /** Closes with 4001 and `reason` if the connection still stands on `checked` (a recheck's verdict). */
  refuse(checked: RecheckedSession, reason: string): void;
}

export interface RealtimeEndpoint {
  open(socket: RealtimeSocket): RealtimePeer;
  /**
   * Rechecks open connections together (one storage read for the batch):
   * those whose device was signed out, whose account is gone or whose token
   * has expired close with 4001. A storage failure closes nothing.
   */
  recheck(peers: readonly RealtimePeer[]): Promise<void>;
}

/** A close reason cut to the 123 bytes of UTF-8 a close frame holds (ws throws on a longer one). */
function closeReason(text: string): string {
  let out = "";
  let bytes = 0;
  for (const ch of text) {
    bytes += utf8Length(ch);
    if (bytes > 123) break;
    out += ch;
  }
  return out;
}

/** The default frame limit of a connection: 100 at once, then 50 a second. */
export const DEFAULT_MAX_FRAMES: Readonly<RateRule> = { burst: 100, intervalMs: 20 };

/** What every connection of an endpoint shares: one object, not a copy per connection. */
interface Settings {
  deps: ServerDeps;
  authTimeoutMs: number;
  maxBufferedBytes: number;
  maxPendingMessages: number;
  handlers: MessageHandlers;
  maxFrames: RateRule | null;
  maxWaiting: number;
  presence: ReturnType<typeof presenceFeed>;
}

/** Creates the realtime endpoint of a server. */
export function createRealtimeEndpoint(deps: ServerDeps, options: RealtimeEndpointOptions = {}): RealtimeEndpoint {
  const maxFrames = options.maxFrames === undefined ? DEFAULT_MAX_FRAMES : options.maxFrames;
  const settings: Settings = {
    deps,
    authTimeoutMs: options.authTimeoutMs ?? 10_000,
    maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
    maxPendingMessages: options.maxPendingMessages ?? 256,
    handlers: options.handlers ?? defaultMessageHandlers,
    maxFrames,
    maxWaiting: (maxFrames ?? DEFAULT_MAX_FRAMES).burst,
    presence: presenceFeed(deps),
  };

  return {
    async recheck(peers) {
      const sessions: RecheckedSession[] = [];
      const checked: RealtimePeer[] = [];
      for (const peer of peers) {
        const session = peer.session;
        if (session) { sessions.push(session); checked.push(peer); }
      }
      let refusals: (string | null)[];
      try {
        refusals = await recheckSessions(deps, sessions);
      } catch {
        return;
      }
      refusals.forEach((reason, i) => { if (reason !== null) checked[i]!.refuse(sessions[i]!, reason); });
    },
    open: (socket) => new Connection(settings, socket),
  };
}

/**
 * One connection. A class, not closures: its methods are shared by every
 * connection, so an idle one holds its fields alone (docs/realtime.md,
 * "What a connection costs").
 */
class Connection implements RealtimePeer {
  private state: "waiting" | "authenticating" | "ready" | "closed" = "waiting";
  userId: string | null = null;
  session: RecheckedSession | null = null;
  private pending = 0;
  private frames: RateState | undefined = undefined;
  private detach: (() => void) | null = null;
  // Frames that arrive while an earlier one is handled (`auth` being checked included) wait for it, in order.
  private waiting: string[] | null = null;
  private busy = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts a message written out; made at the first send. */
  private written: (() => void) | undefined = undefined;

  constructor(private readonly s: Settings, private readonly socket: RealtimeSocket) {
    this.timer = setTimeout(() => this.close(RealtimeCloseCode.AuthTimeout, "auth: send {\"type\":\"auth\",\"token\"} first"), s.authTimeoutMs);
    this.timer.unref?.();
  }

  /** Leaves the hub; the user's friends learn when it was their last connection. */
  private leave(): void {
    if (!this.detach) return;
    this.detach();
    this.detach = null;
    void this.s.presence.closed(this.userId!);
  }

  private close(code: number, reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.session = null;
    clearTimeout(this.timer);
    this.leave();
    this.socket.close(code, closeReason(reason));
  }

  sendText(text: string): void {
    if (this.state === "closed") return;
    if (this.pending >= this.s.maxPendingMessages || this.socket.bufferedAmount > this.s.maxBufferedBytes) {
      this.close(RealtimeCloseCode.TooSlow, "too slow: messages were not read in time");
      return;
    }
    this.pending += 1;
    this.socket.send(text, (this.written ??= () => { this.pending -= 1; }));
  }

  send(event: ServerEvent): void {
    this.sendText(JSON.stringify(event));
  }

  private sendError(reason: unknown, about: string): void {
    const error = PlayfieldError.from(reason);
    if (error.code === Code.Internal) this.s.deps.onInternalError(reason);
    this.send({ type: "error", about, code: error.code, message: error.code === Code.Internal ? "internal error" : error.rawMessage });
  }

  private async authenticate(token: string): Promise<void> {
    this.state = "authenticating";
    try {
      const caller = await authorize(this.s.deps, realtime.REALTIME_AUTH, `Bearer ${token}`);
      if (caller.kind !== "user") throw new PlayfieldError(Code.Unauthenticated, "an access token is required");
      if ((this.state as string) === "closed") return;
      clearTimeout(this.timer);
      this.timer = undefined;
      this.state = "ready";
      const userId = caller.userId;
      this.userId = userId;
      this.session = { userId, deviceId: caller.deviceId, expiresAt: caller.claims.exp };
      // The hub calls send and sendText as methods of the connection.
      this.detach = this.s.deps.realtime.attach(this as Connection & { userId: string });
      this.send({ type: "ready", userId });
      void this.s.presence.opened(userId, (event) => this.send(event));
    } catch (reason) {
      const error = PlayfieldError.from(reason);
      this.close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`);
    }
  }

  /** A fresh token on a live connection (the client refreshed): same user, or the connection ends. */
  private async reauthenticate(token: string): Promise<void> {
    try {
      const caller = await authorize(this.s.deps, realtime.REALTIME_AUTH, `Bearer ${token}`);
      if (caller.kind !== "user" || caller.userId !== this.userId) throw new PlayfieldError(Code.Unauthenticated, "the token is another user's");
      this.session = { userId: caller.userId, deviceId: caller.deviceId, expiresAt: caller.claims.exp };
      this.send({ type: "ready", userId: caller.userId });
    } catch (reason) {
      const error = PlayfieldError.from(reason);
      this.close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`);
    }
  }

  /** Handles a frame that needs handlers or storage: its promise settles once its answers are sent. */
  private async dispatch(frame: HandledFrame): Promise<void> {
    try {
      await handleFrame(this.s.handlers, frame, { deps: this.s.deps, userId: this.userId!, deviceId: this.session!.deviceId, reply: (event) => this.send(event) });
    } catch (reason) {
      this.sendError(reason, frame.type);
    }
  }

  /** Reads a frame of a ready connection: a malformed one closes it, a refused one answers `error`. Returns the work still running, if any. */
  private receiveReady(text: string): Promise<void> | undefined {
    const reading = realtime.readClientFrame(text);
    if (reading.kind === "malformed") {
      this.close(RealtimeCloseCode.BadFrame, reading.reason);
      return undefined;
    }
    if (reading.kind === "refused") {
      const { about, error, clientMessageId } = reading;
      this.send({ type: "error", about, code: error.code, message: error.rawMessage, ...(clientMessageId !== undefined ? { clientMessageId } : {}) });
      return undefined;
    }
    const { frame } = reading;
    if (frame.type === "ping") {
      this.send({ type: "pong" });
      return undefined;
    }
    if (frame.type === "auth") return this.reauthenticate(frame.token);
    return this.dispatch(frame);
  }

  /** Reads the first frame: a valid `auth`, or the connection closes. */
  private receiveFirst(text: string): Promise<void> | undefined {
    const reading = realtime.readClientFrame(text);
    if (reading.kind !== "frame" || reading.frame.type !== "auth") {
      const why = reading.kind === "malformed" ? reading.reason : reading.kind === "refused" ? reading.error.rawMessage : "";
      this.close(RealtimeCloseCode.BadFrame, `the first message must be {"type":"auth","token"}${why ? `: ${why}` : ""}`);
      return undefined;
    }
    return this.authenticate(reading.frame.token);
  }

  /** Handles waiting frames in order, each once the one before has finished; a frame that needs no waiting (ping) is answered at once. */
  private drain(): void {
    while (!this.busy && this.state !== "closed") {
      const text = this.waiting?.shift();
      if (text === undefined) return;
      const running = this.state === "ready" ? this.receiveReady(text) : this.receiveFirst(text);
      if (running) {
        this.busy = true;
        const next = () => { this.busy = false; this.drain(); };
        running.then(next, next);
      }
    }
  }

  receive(text: string): void {
    if (this.state === "closed") return;
    const { maxFrames, maxWaiting } = this.s;
    if (maxFrames) {
      // Every frame counts, before any parsing: a flood costs one token-bucket step per frame, then the connection.
      const decision = takeToken(this.frames, maxFrames, this.s.deps.clock.now());
      if (!decision.allowed) {
        this.close(RealtimeCloseCode.TooManyFrames, `too many messages: at most ${maxFrames.burst} at once, then one every ${maxFrames.intervalMs} ms`);
        return;
      }
      this.frames = decision.state;
    }
    // The queue is bounded as the burst is: a client that sends faster than its frames are handled is cut, not buffered.
    if (this.busy && this.waiting !== null && this.waiting.length >= maxWaiting) {
      this.close(RealtimeCloseCode.TooManyFrames, `too many messages: at most ${maxWaiting} waiting for the one being handled`);
      return;
    }
    (this.waiting ??= []).push(text);
    this.drain();
  }

  closed(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.session = null;
    clearTimeout(this.timer);
    this.leave();
  }

  refuse(checked: RecheckedSession, reason: string): void {
    // A recheck that read an older session than the connection now stands on (renewed with `auth` meanwhile) closes nothing.
    if (checked === this.session) this.close(RealtimeCloseCode.Unauthenticated, reason);
  }
}
