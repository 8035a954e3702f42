import type { IncomingMessage, ServerResponse } from "node:http";
import { fail } from "@playfield/core";
import { errorResponse, MAX_BODY_BYTES, type FetchHandler } from "../fetch-handler.js";

/**
 * Puts a fetch handler on Node's `http`: reads the body (refusing more than
 * MAX_BODY_BYTES as it arrives), builds a `Request`, writes the `Response`.
 * Kept lean: it is on every call's path.
 *
 * @example
 * http.createServer(nodeHttpAdapter(server.fetch)).listen(8080);
 */
export function nodeHttpAdapter(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        void writeResponse(res, errorResponse(fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`)), true);
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (refused) return;
      const method = req.method ?? "GET";
      const headers = new Headers();
      const raw = req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      const body = chunks.length === 0 || method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks, size);
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, { method, headers, body });
      handler(request, { clientAddress: req.socket.remoteAddress ?? null })
        .then((response) => writeResponse(res, response, false))
        .catch(() => {
          if (!res.headersSent) writeResponse(res, errorResponse(fail.invalid("request could not be read")), false);
          else res.destroy();
        });
    });
  };
}

async function writeResponse(res: ServerResponse, response: Response, close: boolean): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => { headers[key] = value; });
  if (close) headers.connection = "close";
  const body = Buffer.from(await response.arrayBuffer());
  headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}
