import type { IncomingMessage, ServerResponse } from "node:http";
import { fail } from "@playfield/core";
import type { Cors } from "../routes/cors.js";
import type { FetchHandler } from "../routes/fetch-handler.js";
import { knownBody } from "../routes/known-body.js";
import { errorAnswer, MAX_BODY_BYTES, type Answer, type IncomingCall, type RpcHandler } from "../rpc/rpc-handler.js";

/** What the adapter serves: the fetch handler, and the RPC layer for the fast path. */
export interface NodeApp {
  handle: FetchHandler;
  rpc?: RpcHandler;
  /** The CORS policy the fetch handler applies, applied here to the RPC answers that skip it. */
  cors?: Cors;
}

/**
 * Puts a Playfield server on Node's `http`. API calls go straight to the RPC
 * layer, read from the IncomingMessage with no `Request`, `Headers` or
 * streams built (they cost more than the call itself in Node 20); other paths
 * go through the fetch handler. Bodies over MAX_BODY_BYTES are refused as
 * they arrive.
 *
 * @example
 * http.createServer(nodeHttpAdapter(server)).listen(8080);
 */
export function nodeHttpAdapter(app: NodeApp): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        writeAnswer(res, errorAnswer(fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`), { connection: "close" }));
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (refused) return;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      const path = pathOf(req.url ?? "/");
      // Preflights go through the fetch handler, which answers them on every path.
      const route = req.method === "OPTIONS" ? undefined : app.rpc?.route(path);
      const origin = req.headers.origin;
      const done = route
        ? app.rpc!.handle(route, new NodeCall(req, body)).then((answer) => writeAnswer(res, origin === undefined || !app.cors
            ? answer
            : { ...answer, headers: app.cors.withHeaders(answer.headers, origin) }))
        : viaFetch(app.handle, req, res, body);
      done.catch(() => {
        if (!res.headersSent) writeAnswer(res, errorAnswer(fail.invalid("request could not be read")));
        else res.destroy();
      });
    });
  };
}

/** A call read from an IncomingMessage; its methods live on the prototype, so a call builds no closures. */
class NodeCall implements IncomingCall {
  readonly method: string;
  // Read now, not when a method asks: a client that hangs up takes its address with it (throttles key on it).
  // Node caches it per socket, so a keep-alive connection looks it up once.
  readonly clientAddress: string | null;
  constructor(private readonly req: IncomingMessage, private readonly body: Buffer) {
    this.method = req.method ?? "GET";
    this.clientAddress = req.socket.remoteAddress ?? null;
  }
  header(name: string): string | null {
    return headerOf(this.req, name);
  }
  text(): string {
    return this.body.toString("utf8");
  }
}

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function writeAnswer(res: ServerResponse, answer: Answer): void {
  const headers: string[] = [];
  for (const name in answer.headers) headers.push(name, answer.headers[name]!);
  headers.push("content-length", String(Buffer.byteLength(answer.body)));
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

async function viaFetch(handle: FetchHandler, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const method = req.method ?? "GET";
  // Header pairs as they came, repeats included; the Request builds its Headers from them once.
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i]!, raw[i + 1]!]);
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    body: body.length === 0 || method === "GET" || method === "HEAD" ? undefined : new Blob([new Uint8Array(body)]),
  });
  const response = await handle(request, { clientAddress: req.socket.remoteAddress ?? null });
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => { out[key] = value; });
  // A Response the server made keeps its body beside it (routes/known-body.ts): no stream to read.
  const known = knownBody(response);
  const bytes = known === undefined ? Buffer.from(await response.arrayBuffer())
    : known === null ? Buffer.alloc(0)
    : typeof known === "string" ? known
    : Buffer.from(known.buffer, known.byteOffset, known.byteLength);
  out["content-length"] = String(typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.length);
  res.writeHead(response.status, out);
  res.end(bytes);
}
