import { Code, PlayfieldError, SessionService, takeToken, type MethodDesc, type RateRule, type RateState } from "@playfield/core";
import { authorize } from "../rpc/authorize.js";
import type { ServerDeps } from "../server-deps.js";
import { presenceFeed } from "../services/presence/feed.js";
import { defaultMessageHandlers, type MessageHandlers } from "./message-handlers.js";
import type { RealtimeEvent } from "../ports/realtime-hub.js";

/*
 * One realtime connection's protocol, apart from any WebSocket library:
 * the first message authenticates (`{"type":"auth","token"}` → `ready`),
 * then client messages go to handlers by `type` and the hub's events go out.
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

/** The close codes the server uses (4000-4999: the application's range). */
export const RealtimeCloseCode = {
  /** No `auth` message in time. */
  AuthTimeout: 4000,
  /** The token was refused, or the device was signed out: get a fresh token and connect again. */
  Unauthenticated: 4001,
  /** The first message was not `auth`, or was not JSON. */
  BadHandshake: 4002,
  /** The client did not read its messages fast enough. */
  TooSlow: 4008,
  /** The client sent frames faster than the connection's frame limit (`maxFrames`). */
  TooManyFrames: 4029,
  /** The server is shutting down: connect again later. */
  GoingAway: 1001,
} as const;
export type RealtimeCloseCode = (typeof RealtimeCloseCode)[keyof typeof RealtimeCloseCode];

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
  /** Client frames per connection, any type: a burst, then one every intervalMs; over it the connection closes (4029). Default 100 at once, then 50 a second; null: no limit. */
  maxFrames?: RateRule | null;
}

/** One connection as the adapter drives it. */
export interface RealtimePeer {
  /** A text frame arrived. */
  receive(text: string): void;
  /** The socket closed: leaves the hub. */
  closed(): void;
  /** Checks that the device is still signed in; closes the connection when not. */
  recheck(): Promise<void>;
  /** The user, once authenticated. */
  readonly userId: string | null;
}

export interface RealtimeEndpoint {
  open(socket: RealtimeSocket): RealtimePeer;
}

/** The auth rule of a realtime connection: an account or guest access token; game and scoped tokens are refused. */
const CONNECT: MethodDesc = {
  ...SessionService.methods.getSession,
  localName: "realtime",
  name: "Realtime",
  path: "/realtime",
  service: "realtime",
  auth: "guest",
  scopes: [],
  summary: "The realtime connection.",
};

/** The default frame limit of a connection: 100 at once, then 50 a second. */
export const DEFAULT_MAX_FRAMES: Readonly<RateRule> = { burst: 100, intervalMs: 20 };

/** Creates the realtime endpoint of a server. */
export function createRealtimeEndpoint(deps: ServerDeps, options: RealtimeEndpointOptions = {}): RealtimeEndpoint {
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const maxPendingMessages = options.maxPendingMessages ?? 256;
  const handlers = options.handlers ?? defaultMessageHandlers;
  const maxFrames = options.maxFrames === undefined ? DEFAULT_MAX_FRAMES : options.maxFrames;
  const presence = presenceFeed(deps);

  return {
    open(socket) {
      let state: "waiting" | "authenticating" | "ready" | "closed" = "waiting";
      let userId: string | null = null;
      let deviceId = "";
      let authorization = "";
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
        clearTimeout(timer);
        leave();
        socket.close(code, reason);
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
      const send = (event: RealtimeEvent) => sendText(JSON.stringify(event));
      const sendError = (reason: unknown, about: string) => {
        const error = PlayfieldError.from(reason);
        if (error.code === Code.Internal) deps.onInternalError(reason);
        send({ type: "error", about, code: error.code, message: error.code === Code.Internal ? "internal error" : error.rawMessage });
      };

      const timer = setTimeout(() => close(RealtimeCloseCode.AuthTimeout, "auth: send {\"type\":\"auth\",\"token\"} first"), authTimeoutMs);
      timer.unref?.();

      async function authenticate(token: unknown): Promise<void> {
        if (typeof token !== "string" || token === "") {
          close(RealtimeCloseCode.BadHandshake, "auth: token required");
          return;
        }
        state = "authenticating";
        try {
          const caller = await authorize(deps, CONNECT, `Bearer ${token}`);
          if (caller.kind !== "user") throw new PlayfieldError(Code.Unauthenticated, "an access token is required");
          if ((state as string) === "closed") return;
          clearTimeout(timer);
          state = "ready";
          userId = caller.userId;
          deviceId = caller.deviceId;
          authorization = `Bearer ${token}`;
          detach = deps.realtime.attach({ userId, send, sendText });
          send({ type: "ready", userId });
          void presence.opened(userId, send);
        } catch (reason) {
          const error = PlayfieldError.from(reason);
          close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`.slice(0, 120));
        }
      }

      /** A fresh token on a live connection (the client refreshed): same user, or the connection ends. */
      async function reauthenticate(token: unknown): Promise<void> {
        try {
          if (typeof token !== "string" || token === "") throw new PlayfieldError(Code.InvalidArgument, "token: required");
          const caller = await authorize(deps, CONNECT, `Bearer ${token}`);
          if (caller.kind !== "user" || caller.userId !== userId) throw new PlayfieldError(Code.Unauthenticated, "the token is another user's");
          deviceId = caller.deviceId;
          authorization = `Bearer ${token}`;
          send({ type: "ready", userId });
        } catch (reason) {
          const error = PlayfieldError.from(reason);
          if (error.code === Code.InvalidArgument) sendError(error, "auth");
          else close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`.slice(0, 120));
        }
      }

      async function dispatch(message: RealtimeEvent): Promise<void> {
        if (message.type === "ping") {
          send({ type: "pong" });
          return;
        }
        if (message.type === "auth") {
          await reauthenticate(message.token);
          return;
        }
        const handler = Object.hasOwn(handlers, message.type) ? handlers[message.type] : undefined;
        if (!handler) {
          send({ type: "error", about: message.type, code: Code.InvalidArgument, message: `type: unknown message type ${JSON.stringify(message.type).slice(0, 40)}` });
          return;
        }
        try {
          await handler(message, { deps, userId: userId!, deviceId, reply: send });
        } catch (reason) {
          sendError(reason, message.type);
        }
      }

      return {
        get userId() { return userId; },
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
          if (state === "authenticating") return;
          let message: unknown;
          try {
            message = JSON.parse(text);
          } catch {
            message = undefined;
          }
          const valid = typeof message === "object" && message !== null && !Array.isArray(message) && typeof (message as RealtimeEvent).type === "string";
          if (state === "waiting") {
            if (!valid || (message as RealtimeEvent).type !== "auth") {
              close(RealtimeCloseCode.BadHandshake, "the first message must be {\"type\":\"auth\",\"token\"}");
              return;
            }
            void authenticate((message as RealtimeEvent).token);
            return;
          }
          if (!valid) {
            send({ type: "error", about: "", code: Code.InvalidArgument, message: "a message is a JSON object with a string `type`" });
            return;
          }
          void dispatch(message as RealtimeEvent);
        },
        closed() {
          if (state === "closed") return;
          state = "closed";
          clearTimeout(timer);
          leave();
        },
        async recheck() {
          if (state !== "ready") return;
          try {
            await authorize(deps, CONNECT, authorization);
          } catch (reason) {
            const error = PlayfieldError.from(reason);
            // Only a refused token ends the connection: an expired access token is refused too, so a client reconnects with a fresh one.
            if (error.code === Code.Unauthenticated) close(RealtimeCloseCode.Unauthenticated, `${error.code}: ${error.rawMessage}`.slice(0, 120));
          }
        },
      };
    },
  };
}
