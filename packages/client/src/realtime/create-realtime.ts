import { RealtimeCloseCode } from "@playfield/core/wire";
import type { ClientAuth } from "../token-session.js";
import type { RealtimeEventMap, RealtimeMessage } from "./realtime-events.js";

/**
 * An event handler property, compared as a method's parameter is (bivariantly): the browser's
 * WebSocket and `ws` declare handlers of richer event types, and both must fit as they are.
 */
type Handler<E> = { handle(event: E): void }["handle"];

/** What the realtime connection needs of a WebSocket: the browser's, or `ws` in Node. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
  onclose: Handler<{ code: number; reason: string }> | null;
  onerror: Handler<unknown> | null;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** The connection's state: `closed` after `close()`, or when the client has no usable tokens. */
export type RealtimeState = "connecting" | "ready" | "reconnecting" | "closed";

/** Options of `createRealtime`. */
export interface RealtimeOptions {
  /** The API's base URL (`https://api.example.com`: the connection goes to `wss://api.example.com/realtime`), or the realtime URL itself (`ws…`). */
  url: string;
  /** The WebSocket to use; `globalThis.WebSocket` when left out (pass `ws` in Node 20). */
  WebSocket?: WebSocketConstructor;
  /** First reconnect delay; doubles up to `maxBackoffMs`, with jitter. Default 500 ms. */
  backoffMs?: number;
  /** Default 30 000 ms. */
  maxBackoffMs?: number;
  /** How often the client pings; a connection silent for two intervals is replaced. Default 25 000 ms; 0 turns pings off. */
  pingIntervalMs?: number;
  /** Where the time comes from, to tell when the access token expires; the system clock when left out. */
  now?: () => number;
}

/** A realtime connection of a client: typed event handlers, reconnects, re-authentication. */
export interface Realtime {
  readonly state: RealtimeState;
  /** Listens to one message type; the returned function stops listening. `"*"` hears every message. */
  on<K extends keyof RealtimeEventMap>(type: K, handler: (event: RealtimeEventMap[K]) => void): () => void;
  on(type: string, handler: (event: RealtimeMessage) => void): () => void;
  /** Listens to state changes. */
  onState(listener: (state: RealtimeState, detail?: { code: number; reason: string }) => void): () => void;
  /** Sends a message; false when the connection is not ready (messages are not queued). */
  send(message: RealtimeMessage): boolean;
  /** Relays a WebRTC signalling message to another member of a session. */
  signal(sessionId: string, to: string, data: unknown): boolean;
  /** Sends a chat message (`chat_ack` or `error` answers it); resend with the same `clientMessageId` after a drop: it is stored once. */
  chat(channel: string, text: string, clientMessageId: string): boolean;
  /** Resolves when the connection is (next) ready. */
  ready(): Promise<void>;
  /** Closes the connection for good. */
  close(): void;
}

const OPEN = 1;

function realtimeUrl(url: string): string {
  if (/^wss?:/i.test(url)) return url;
  return `${url.replace(/\/+$/, "").replace(/^http/i, "ws")}/realtime`;
}

/**
 * Opens the realtime connection of a client: authenticates with the
 * client's access token, reconnects with backoff, refreshes the token when
 * the server refuses it, and sends the new token when the client refreshes.
 *
 * @example
 * const realtime = createRealtime(client, { url: "https://api.example.com" });
 * realtime.on("game_invite", (invite) => showInvite(invite.from.displayName, invite.title));
 */
export function createRealtime(client: { auth: ClientAuth }, options: RealtimeOptions): Realtime {
  const url = realtimeUrl(options.url);
  const Socket: WebSocketConstructor | undefined = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (Socket === undefined) throw new Error("no WebSocket here: pass `WebSocket` (for example from the `ws` package)");
  const baseBackoff = options.backoffMs ?? 500;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  const pingMs = options.pingIntervalMs ?? 25_000;
  const now = options.now ?? (() => Date.now());

  const handlers = new Map<string, Set<(event: RealtimeMessage) => void>>();
  const stateListeners = new Set<(state: RealtimeState, detail?: { code: number; reason: string }) => void>();
  let state: RealtimeState = "connecting";
  let socket: WebSocketLike | null = null;
  let sentToken = "";
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let pinger: ReturnType<typeof setInterval> | undefined;
  let heardAt = 0;
  let waiters: (() => void)[] = [];

  const setState = (next: RealtimeState, detail?: { code: number; reason: string }) => {
    if (state === next && !detail) return;
    state = next;
    for (const listener of stateListeners) listener(next, detail);
    if (next === "ready") {
      const resolved = waiters;
      waiters = [];
      for (const resolve of resolved) resolve();
    }
  };

  // A function, so that checks after an await read the current state.
  const isClosed = () => state === "closed";

  const emit = (message: RealtimeMessage) => {
    for (const key of [message.type, "*"]) {
      for (const handler of handlers.get(key) ?? []) {
        try {
          handler(message);
        } catch (error) {
          // A failing handler must not break delivery to the others.
          queueMicrotask(() => { throw error; });
        }
      }
    }
  };

  async function accessToken(): Promise<string | null> {
    const tokens = await client.auth.getTokens();
    if (!tokens?.accessToken) return null;
    if (tokens.refreshToken && tokens.expiresAt > 0 && now() >= tokens.expiresAt - 5_000) {
      return (await client.auth.refresh()).accessToken;
    }
    return tokens.accessToken;
  }

  function scheduleReconnect(detail?: { code: number; reason: string }): void {
    if (state === "closed") return;
    setState("reconnecting", detail);
    const delay = Math.min(maxBackoff, baseBackoff * 2 ** attempt) * (0.75 + Math.random() * 0.5);
    attempt += 1;
    retry = setTimeout(() => void connect(), delay);
  }

  async function connect(): Promise<void> {
    if (state === "closed") return;
    let token: string | null;
    try {
      token = await accessToken();
    } catch {
      token = null;
      // A refresh that failed for a passing reason is tried again; a refused one signed the client out.
      if (await client.auth.isSignedIn()) return scheduleReconnect();
    }
    if (isClosed()) return;
    if (!token) return setState("closed", { code: RealtimeCloseCode.Unauthenticated, reason: "signed out" });
    const ws = new Socket!(url);
    socket = ws;
    ws.onopen = () => {
      sentToken = token;
      ws.send(JSON.stringify({ type: "auth", token }));
    };
    ws.onmessage = (event) => {
      heardAt = now();
      let message: RealtimeMessage;
      try {
        message = JSON.parse(String(event.data)) as RealtimeMessage;
      } catch {
        return;
      }
      if (typeof message?.type !== "string") return;
      if (message.type === "ready") {
        attempt = 0;
        setState("ready");
      }
      if (message.type !== "pong") emit(message);
    };
    ws.onerror = () => undefined;
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      const detail = { code: event.code, reason: event.reason };
      if (state === "closed") return;
      if (event.code === RealtimeCloseCode.Unauthenticated) {
        // The token was refused: refresh it, then connect again.
        setState("reconnecting", detail);
        client.auth.refresh().then(
          () => { attempt = 0; void connect(); },
          async () => {
            if (await client.auth.isSignedIn()) scheduleReconnect(detail);
            else setState("closed", detail);
          },
        );
        return;
      }
      scheduleReconnect(detail);
    };
  }

  // A refreshed token goes to the live connection; signing out closes it.
  const stopTokens = client.auth.subscribe((tokens) => {
    if (!tokens) {
      realtime.close();
      return;
    }
    if (socket && state === "ready" && tokens.accessToken !== sentToken) {
      sentToken = tokens.accessToken;
      socket.send(JSON.stringify({ type: "auth", token: tokens.accessToken }));
    }
  });

  if (pingMs > 0) {
    pinger = setInterval(() => {
      if (!socket || state !== "ready" || socket.readyState !== OPEN) return;
      if (now() - heardAt > 2 * pingMs) {
        // Nothing heard for two intervals: the connection is dead; replace it.
        socket.close(4009, "no answer to pings");
        return;
      }
      socket.send(JSON.stringify({ type: "ping" }));
    }, pingMs);
    (pinger as { unref?: () => void }).unref?.();
  }

  const realtime: Realtime = {
    get state() { return state; },
    on(type: string, handler: (event: never) => void) {
      let set = handlers.get(type);
      if (!set) handlers.set(type, (set = new Set()));
      const h = handler as (event: RealtimeMessage) => void;
      set.add(h);
      return () => { set.delete(h); };
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => { stateListeners.delete(listener); };
    },
    send(message) {
      if (!socket || state !== "ready" || socket.readyState !== OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    signal: (sessionId, to, data) => realtime.send({ type: "signal", sessionId, to, data }),
    chat: (channel, text, clientMessageId) => realtime.send({ type: "chat_send", channel, text, clientMessageId }),
    ready() {
      if (state === "ready") return Promise.resolve();
      if (state === "closed") return Promise.reject(new Error("the realtime connection is closed"));
      return new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      if (state === "closed") return;
      setState("closed");
      clearTimeout(retry);
      clearInterval(pinger);
      stopTokens();
      const ws = socket;
      socket = null;
      ws?.close(1000, "closed by the client");
    },
  };
  void connect();
  return realtime;
}
