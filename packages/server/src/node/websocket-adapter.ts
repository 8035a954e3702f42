import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { realtime, RealtimeCloseCode } from "@playfield/core";
import { createCors } from "../routes/cors.js";
import type { ServerMetrics } from "../observe/server-metrics.js";
import type { ServerDeps } from "../server-deps.js";
import { createRealtimeEndpoint, type RealtimeEndpointOptions, type RealtimePeer, type RealtimeSocket } from "../realtime/realtime-endpoint.js";
import { createSlicedSweep } from "../realtime/sliced-sweep.js";

/** How long a closing connection may take to answer the close frame. */
const CLOSE_GRACE_MS = 1000;

/** Connections rechecked in one storage read at most (a slice's visits, usually far fewer). */
const RECHECK_BATCH = 512;

/** Cuts a socket once a closing one had time to answer the close frame. */
function cutLater(ws: WebSocket): void {
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}

/**
 * One open connection: the endpoint's socket (a class, so that its methods
 * are shared by every connection), its protocol, and when it was pinged
 * without answering yet (0: it answered).
 */
class Live implements RealtimeSocket {
  peer!: RealtimePeer;
  pingedAt = 0;
  constructor(readonly ws: WebSocket, private readonly metrics: ServerMetrics | undefined) {}
  send(text: string, done: (error?: Error) => void): void {
    this.metrics?.realtimeFrame("out");
    this.ws.send(text, done);
  }
  close(code: number, reason: string): void {
    this.ws.close(code, reason);
    // A client that does not answer the close (it is not reading) is cut off.
    cutLater(this.ws);
  }
  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }
}

const LIVE = Symbol("playfield.live");
type LiveWebSocket = WebSocket & { [LIVE]: Live };
const liveOf = (ws: WebSocket) => (ws as LiveWebSocket)[LIVE];

/** Options of the WebSocket adapter; the endpoint's options plus the transport's own. */
export interface WebSocketAdapterOptions extends RealtimeEndpointOptions {
  /** The path that upgrades. Default `/realtime`. */
  path?: string;
  /**
   * How often each connection is pinged and its session rechecked (device signed out, account deleted, token
   * expired: closed with 4001); one without a pong by its next turn (at least half an interval later) is dropped.
   * The pings are spread over the interval in slices (realtime/sliced-sweep.ts), not sent all at once. Default 30 000 ms.
   */
  pingIntervalMs?: number;
  /** The longest a slice of pings and rechecks runs before the event loop gets its turn. Default 2 ms. */
  sweepSliceMs?: number;
  /** The largest client frame. Default 64 KiB. */
  maxPayloadBytes?: number;
}

/** The realtime server on a Node http server. */
export interface WebSocketAdapter {
  /** How many connections are open. */
  readonly size: number;
  /**
   * Stops accepting connections and closes every open one with 1012
   * (`RealtimeCloseCode.ServiceRestart`: the client connects again). A
   * connection that has not finished closing within `timeoutMs` (default
   * 1000 ms) is cut.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Serves `GET /realtime` on a Node http server with `ws`: upgrades it and
 * drives each connection with the realtime endpoint. Pings keep
 * connections alive and find dead ones; other upgrade paths are refused.
 *
 * @example
 * const realtime = websocketAdapter(http, server.deps);
 */
export function websocketAdapter(http: Server, deps: ServerDeps, options: WebSocketAdapterOptions = {}): WebSocketAdapter {
  const path = options.path ?? "/realtime";
  const endpoint = createRealtimeEndpoint(deps, options);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes ?? realtime.REALTIME_FRAME_MAX_BYTES, perMessageDeflate: false });
  // Pings and rechecks, spread over the interval: no pass over every connection at once.
  let batch: RealtimePeer[] = [];
  const flush = () => {
    const peers = batch;
    batch = [];
    void endpoint.recheck(peers);
  };
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  const live = createSlicedSweep<Live>({
    intervalMs: pingIntervalMs,
    sliceBudgetMs: options.sweepSliceMs ?? 2,
    visit(entry) {
      const now = performance.now();
      if (entry.pingedAt !== 0) {
        // Unanswered: cut, unless the ping is too recent to judge (a late tick brought the visit early).
        if (now - entry.pingedAt >= pingIntervalMs / 2) entry.ws.terminate();
        return;
      }
      entry.pingedAt = now;
      entry.ws.ping();
      // The slice's connections go to storage together, once the slice has run (a microtask after it).
      if (batch.push(entry.peer) === 1) queueMicrotask(flush);
      else if (batch.length >= RECHECK_BATCH) flush();
    },
  });

  // Browsers send no preflight before a WebSocket: the upgrade itself checks the page's origin.
  const cors = createCors(deps.config);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    if ((q === -1 ? url : url.slice(0, q)) !== path || req.method !== "GET") {
      socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    if (!cors.allowsUpgrade(req.headers.origin, req.headers.host)) {
      const body = `origin ${req.headers.origin} is not allowed: add it to the server's webOrigins`;
      socket.end(`HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  };
  http.on("upgrade", onUpgrade);

  const { metrics } = deps;
  // One set of listeners for every connection (each is called with its socket as `this`), not closures per connection.
  function onPong(this: WebSocket): void {
    liveOf(this).pingedAt = 0;
  }
  function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
    metrics?.realtimeFrame("in");
    if (isBinary) {
      this.close(RealtimeCloseCode.BadFrame, "a frame is JSON text, not binary");
      return;
    }
    liveOf(this).peer.receive(data.toString());
  }
  // ws has already sent a close frame for a protocol error (1009 for a frame over the limit): cut the socket only once it had time to leave.
  function onError(this: WebSocket): void {
    cutLater(this);
  }
  function onClose(this: WebSocket): void {
    metrics?.realtimeConnections(-1);
    const entry = liveOf(this);
    live.delete(entry);
    entry.peer.closed();
  }

  function accept(ws: WebSocket): void {
    metrics?.realtimeConnections(1);
    const entry = new Live(ws, metrics);
    entry.peer = endpoint.open(entry);
    (ws as LiveWebSocket)[LIVE] = entry;
    live.add(entry);
    ws.on("pong", onPong);
    ws.on("message", onMessage);
    ws.on("error", onError);
    ws.on("close", onClose);
  }

  return {
    get size() { return live.size; },
    async close(timeoutMs = CLOSE_GRACE_MS) {
      live.stop();
      http.off("upgrade", onUpgrade);
      for (const { ws } of live) ws.close(RealtimeCloseCode.ServiceRestart, "server restarting: connect again");
      // Resolves once the last connection has closed (ws counts them).
      const closed = new Promise<void>((resolve) => wss.close(() => resolve()));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); })]);
      clearTimeout(timer);
      for (const { ws } of live) ws.terminate();
      await closed;
    },
  };
}
