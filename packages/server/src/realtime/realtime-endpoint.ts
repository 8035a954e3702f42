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

/** Creates the realtime endpoint of a server. */
export function createRealtimeEndpoint(deps: ServerDeps, options: RealtimeEndpointOptions = {}): RealtimeEndpoint {
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const maxPendingMessages = options.maxPendingMessages ?? 256;
  const handlers = options.handlers ?? defaultMessageHandlers;
  const maxFrames = options.maxFrames === undefined ? DEFAULT_MAX_FRAMES : options.maxFrames;
  const maxWaiting = (maxFrames ?? DEFAULT_MAX_FRAMES).burst;
  const presence = presenceFeed(deps);

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
    open(socket) {
      let state: "waiting" | "authenticating" | "ready" | "closed" = "waiting";
      let userId: string | null = null;
      let session: RecheckedSession | null = null;
      let pending = 0;
      let frames: RateState | undefined;
      let detach: (() => void) | null = null;

      /** Leaves the hub; the user's friends learn when it was their last connection. */
      const leave = () => {
        if (!detach) return;
        detach();
        detach = null;
        void presence.closed(userId!);
      };
      const close = (code: number, reason: string) => {
        if (state === "closed") return;
        state = "closed";
        session = null;
        clearTimeout(timer);
        leave();
        socket.close(code, closeReason(reason));
      };
      const written = () => { pending -= 1; };
      const sendText = (text: string) => {
        if (state === "closed") return;
        if (pending >= maxPendingMessages || socket.bufferedAmount > maxBufferedBytes) {
          close(RealtimeCloseCode.TooSlow, "too slow: messages were not read in time");
          return;
        }
        pending += 1;
        socket.send(text, written);
      };
      const send = (event: ServerEvent) => sendText(JSON.stringify(event));
      const sendError = (reason: unknown, about: string) => {
        const error = PlayfieldError.from(reason);
        if (error.code === Code.Internal) deps.onInternalError(reason);
        send({ type: "error", about, code: error.code, message: error.code === Code.Internal ? "internal error" : error.rawMessage });
      };

      // Frames that arrive while an earlier one is handled (`auth` being checked included) wait for it, in order.
      const waiting: string[] = [];
      let busy = false;
      const timer = setTimeout(() => close(RealtimeCloseCode.AuthTimeout, "auth: send {\"type\":\"auth\",\"token\"} first"), authTimeoutMs);
      timer.unref?.();

      async function authenticate(token: string): Promise<void> {
        state = "authenticating";
        try {
          const caller = await authorize(deps, realtime.REALTIME_AUTH, `Bearer ${token}`);
          if (caller.kind !== "user") throw new PlayfieldError(Code.Unauthenticated, "an access token is required");
          if ((state as string) === "closed") return;
          clearTimeout(timer);
          state = "ready";
          userId = caller.userId;
          session = { userId, deviceId: caller.deviceId, expiresAt: caller.claims.exp };
          detach = deps.realtime.attach({ userId, send, sendText });
          send({ type: "ready", userId });
          void presence.opened(userId, send);
        } catch (reason) {
          const error = PlayfieldError.from(reason);
          close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`);
        }
      }

      /** A fresh token on a live connection (the client refreshed): same user, or the connection ends. */
      async function reauthenticate(token: string): Promise<void> {
        try {
          const caller = await authorize(deps, realtime.REALTIME_AUTH, `Bearer ${token}`);
          if (caller.kind !== "user" || caller.userId !== userId) throw new PlayfieldError(Code.Unauthenticated, "the token is another user's");
          session = { userId, deviceId: caller.deviceId, expiresAt: caller.claims.exp };
          send({ type: "ready", userId });
        } catch (reason) {
          const error = PlayfieldError.from(reason);
          close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`);
        }
      }

      /** Handles a frame that needs handlers or storage: its promise settles once its answers are sent. */
      async function dispatch(frame: HandledFrame): Promise<void> {
        try {
          await handleFrame(handlers, frame, { deps, userId: userId!, deviceId: session!.deviceId, reply: send });
        } catch (reason) {
          sendError(reason, frame.type);
        }
      }

      /** Reads a frame of a ready connection: a malformed one closes it, a refused one answers `error`. Returns the work still running, if any. */
      function receiveReady(text: string): Promise<void> | undefined {
        const reading = realtime.readClientFrame(text);
        if (reading.kind === "malformed") {
          close(RealtimeCloseCode.BadFrame, reading.reason);
          return undefined;
        }
        if (reading.kind === "refused") {
          const { about, error, clientMessageId } = reading;
          send({ type: "error", about, code: error.code, message: error.rawMessage, ...(clientMessageId !== undefined ? { clientMessageId } : {}) });
          return undefined;
        }
        const { frame } = reading;
        if (frame.type === "ping") {
          send({ type: "pong" });
          return undefined;
        }
        if (frame.type === "auth") return reauthenticate(frame.token);
        return dispatch(frame);
      }

      /** Reads the first frame: a valid `auth`, or the connection closes. */
      function receiveFirst(text: string): Promise<void> | undefined {
        const reading = realtime.readClientFrame(text);
        if (reading.kind !== "frame" || reading.frame.type !== "auth") {
          const why = reading.kind === "malformed" ? reading.reason : reading.kind === "refused" ? reading.error.rawMessage : "";
          close(RealtimeCloseCode.BadFrame, `the first message must be {"type":"auth","token"}${why ? `: ${why}` : ""}`);
          return undefined;
        }
        return authenticate(reading.frame.token);
      }

      /** Handles waiting frames in order, each once the one before has finished; a frame that needs no waiting (ping) is answered at once. */
      function drain(): void {
        while (!busy && state !== "closed") {
          const text = waiting.shift();
          if (text === undefined) return;
          const running = state === "ready" ? receiveReady(text) : receiveFirst(text);
          if (running) {
            busy = true;
            const next = () => { busy = false; drain(); };
            running.then(next, next);
          }
        }
      }

      const peer: RealtimePeer = {
        get userId() { return userId; },
        get session() { return session; },
        receive(text) {
          if (state === "closed") return;
          if (maxFrames) {
            // Every frame counts, before any parsing: a flood costs one token-bucket step per frame, then the connection.
            const decision = takeToken(frames, maxFrames, deps.clock.now());
            if (!decision.allowed) {
              close(RealtimeCloseCode.TooManyFrames, `too many messages: at most ${maxFrames.burst} at once, then one every ${maxFrames.intervalMs} ms`);
              return;
            }
            frames = decision.state;
          }
          // The queue is bounded as the burst is: a client that sends faster than its frames are handled is cut, not buffered.
          if (busy && waiting.length >= maxWaiting) {
            close(RealtimeCloseCode.TooManyFrames, `too many messages: at most ${maxWaiting} waiting for the one being handled`);
            return;
          }
          waiting.push(text);
          drain();
        },
        closed() {
          if (state === "closed") return;
          state = "closed";
          session = null;
          clearTimeout(timer);
          leave();
        },
        refuse(checked, reason) {
          // A recheck that read an older session than the connection now stands on (renewed with `auth` meanwhile) closes nothing.
          if (checked === session) close(RealtimeCloseCode.Unauthenticated, reason);
        },
      };
      return peer;
    },
  };
}
