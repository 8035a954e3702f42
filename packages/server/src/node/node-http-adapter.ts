import type { IncomingMessage, ServerResponse } from "node:http";
import { fail } from "@playfield/core";
import type { FetchHandler } from "../routes/fetch-handler.js";
import type { Responder } from "../routes/respond.js";
import type { RouteAnswer, RouteRequest } from "../routes/route.js";
import { errorAnswer, MAX_BODY_BYTES } from "../rpc/rpc-handler.js";
import { REQUEST_ID_HEADER, requestIdOf } from "../observe/request-id.js";

/** What the adapter serves: a fetch handler, or better the server's responder. */
export interface NodeApp {
  handle: FetchHandler;
  /** The server as one function of a plain request (routes/respond.ts); when given, every request goes there. */
  respond?: Responder;
}

/**
 * Puts a Playfield server on Node's `http`. Every request (API calls, health,
 * keys, content, preflights) goes to the server's responder, read from the
 * IncomingMessage with no `Request`, `Headers`, `URL` or streams built (in
 * Node 20 they cost more than the call itself); an app with only a fetch
 * handler is served through it. Bodies over MAX_BODY_BYTES are refused as
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
        writeAnswer(res, errorAnswer(fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`), { connection: "close", ...ownRequestId(req) }));
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (refused) return;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      // One reaction for both outcomes (a `.then` and a `.catch` would make two promises per call). No closure here
      // is bound to a name: tsx (which runs the bench) keeps names with an Object.defineProperty per closure made.
      if (app.respond) {
        app.respond(new NodeRequest(req, body)).then((answer) => {
          try {
            writeAnswer(res, answer);
          } catch {
            answerFailure(res);
          }
        }, () => answerFailure(res));
      } else {
        viaFetch(app.handle, req, res, body).catch(() => answerFailure(res));
      }
    });
  };
}

/** What a call whose answer could not be made gets: `invalid`, or a cut connection once its headers are out. */
function answerFailure(res: ServerResponse): void {
  if (!res.headersSent) writeAnswer(res, errorAnswer(fail.invalid("request could not be read"), ownRequestId(res.req)));
  else res.destroy();
}

/** The request id of an answer the adapter makes itself (the server never saw the request). */
function ownRequestId(req: IncomingMessage): Record<string, string> {
  const given = req.headers[REQUEST_ID_HEADER];
  return { [REQUEST_ID_HEADER]: requestIdOf(typeof given === "string" ? given : null) };
}

// A path of these characters with no `.` or `..` segment reads the same raw
// as through the URL parser; any other is parsed, as a `Request` would be.
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/** Whether a path has a `.` or `..` segment; two substring searches spare the RegExp's scan for nearly every path. */
function hasDotSegment(path: string): boolean {
  return (path.includes("/.") || path.includes("%")) && DOT_SEGMENT.test(path);
}

/** A request read from an IncomingMessage; its methods live on the prototype, so a call builds no closures. */
class NodeRequest implements RouteRequest {
  readonly method: string;
  readonly path: string;
  // Read now, not when a method asks: a client that hangs up takes its address with it (throttles key on it).
  // Node caches it per socket, so a keep-alive connection looks it up once.
  readonly clientAddress: string | null;
  private readonly search: string;
  private params: URLSearchParams | undefined;
  constructor(private readonly req: IncomingMessage, private readonly body: Buffer) {
    this.method = req.method ?? "GET";
    this.clientAddress = req.socket.remoteAddress ?? null;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (PLAIN_PATH.test(path) && !hasDotSegment(path)) {
      this.path = path;
      this.search = q === -1 ? "" : url.slice(q);
    } else {
      const parsed = parseUrl(url);
      this.path = parsed?.pathname ?? path;
      this.search = parsed?.search ?? "";
    }
  }
  get query(): URLSearchParams {
    return (this.params ??= new URLSearchParams(this.search));
  }
  header(name: string): string | null {
    const value = this.req.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
  text(): string {
    return this.body.toString("utf8");
  }
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url, "http://localhost");
  } catch {
    return null;
  }
}

function writeAnswer(res: ServerResponse, answer: RouteAnswer): void {
  const headers: string[] = [];
  for (const name in answer.headers) headers.push(name, answer.headers[name]!);
  const { body } = answer;
  // A route may say the length itself: a HEAD answer has none of the body it measures.
  if (answer.headers["content-length"] === undefined) {
    headers.push("content-length", String(body === null ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength));
  }
  res.writeHead(answer.status, headers);
  if (body === null) res.end();
  else res.end(body);
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
  const bytes = new Uint8Array(await response.arrayBuffer());
  writeAnswer(res, { status: response.status, headers: out, body: bytes });
}
