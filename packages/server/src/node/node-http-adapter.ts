import type { IncomingMessage, ServerResponse } from "node:http";
import { fail } from "@playfield/core";
import type { Cors } from "../routes/cors.js";
import type { FetchHandler } from "../routes/fetch-handler.js";
import { errorAnswer, MAX_BODY_BYTES, type Answer, type RpcHandler } from "../rpc/rpc-handler.js";

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
        ? app.rpc!.handle(route, {
            method: req.method ?? "GET",
            header: (name) => headerOf(req, name),
            text: async () => body.toString("utf8"),
            clientAddress: req.socket.remoteAddress ?? null,
          }).then((answer) => writeAnswer(res, origin === undefined || !app.cors
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
  res.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
  res.end(answer.body);
}

async function viaFetch(handle: FetchHandler, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const method = req.method ?? "GET";
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    body: body.length === 0 || method === "GET" || method === "HEAD" ? undefined : new Blob([new Uint8Array(body)]),
  });
  const response = await handle(request, { clientAddress: req.socket.remoteAddress ?? null });
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => { out[key] = value; });
  const bytes = Buffer.from(await response.arrayBuffer());
  out["content-length"] = String(bytes.length);
  res.writeHead(response.status, out);
  res.end(bytes);
}
