import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { realtime, RealtimeCloseCode } from "@playfield/core";
import { createCors } from "../routes/cors.js";
import type { ServerDeps } from "../server-deps.js";
import { createRealtimeEndpoint, type RealtimeEndpointOptions, type RealtimePeer } from "../realtime/realtime-endpoint.js";

/** How long a closing connection may take to answer the close frame. */
const CLOSE_GRACE_MS = 1000;

/** Options of the WebSocket adapter; the endpoint's options plus the transport's own. */
export interface WebSocketAdapterOptions extends RealtimeEndpointOptions {
  /** The path that upgrades. Default `/realtime`. */
  path?: string;
  /** How often a connection is pinged (and its device rechecked); one without a pong by the next ping is dropped. Default 30 000 ms. */
  pingIntervalMs?: number;
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
  const live = new Map<WebSocket, { peer: RealtimePeer; alive: boolean }>();

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
  function accept(ws: WebSocket): void {
    metrics?.realtimeConnections(1);
    const peer = endpoint.open({
      send: (text, done) => {
        metrics?.realtimeFrame("out");
        ws.send(text, done);
      },
      close: (code, reason) => {
        ws.close(code, reason);
        // A client that does not answer the close (it is not reading) is cut off.
        setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      },
      get bufferedAmount() { return ws.bufferedAmount; },
    });
    const entry = { peer, alive: true };
    live.set(ws, entry);
    ws.on("pong", () => { entry.alive = true; });
    ws.on("message", (data, isBinary) => {
      metrics?.realtimeFrame("in");
      if (isBinary) {
        ws.close(RealtimeCloseCode.BadFrame, "a frame is JSON text, not binary");
        return;
      }
      peer.receive(data.toString());
    });
    // ws has already sent a close frame for a protocol error (1009 for a frame over the limit): cut the socket only once it had time to leave.
    ws.on("error", () => setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref());
    ws.on("close", () => {
      metrics?.realtimeConnections(-1);
      live.delete(ws);
      peer.closed();
    });
  }

  const pinger = setInterval(() => {
    for (const [ws, entry] of live) {
      if (!entry.alive) {
        ws.terminate();
        continue;
      }
      entry.alive = false;
      ws.ping();
      void entry.peer.recheck();
    }
  }, options.pingIntervalMs ?? 30_000);
  pinger.unref();

  return {
    get size() { return live.size; },
    async close(timeoutMs = CLOSE_GRACE_MS) {
      clearInterval(pinger);
      http.off("upgrade", onUpgrade);
      for (const ws of live.keys()) ws.close(RealtimeCloseCode.ServiceRestart, "server restarting: connect again");
      // Resolves once the last connection has closed (ws counts them).
      const closed = new Promise<void>((resolve) => wss.close(() => resolve()));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); })]);
      clearTimeout(timer);
      for (const ws of live.keys()) ws.terminate();
      await closed;
    },
  };
}
