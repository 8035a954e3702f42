import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptRuntime } from "../runtime/create-script-runtime.js";
import { PANEL_PAGE } from "./serve-page.js";

/** Options of {@link createScriptServer}. */
export interface ScriptServerOptions {
  /** The port; 0 (the default) picks a free one. */
  port?: number;
  /** Largest request body. Default 16 MiB. */
  maxBodyBytes?: number;
}

/** A running local server of script commands and the Scripts panel page. */
export interface ScriptServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const STATUS: Record<string, number> = { invalid_argument: 400, not_found: 404, failed_precondition: 409, internal: 500 };
const fail = (code: string, message: string) => ({ ok: false, error: { code, message } });

/**
 * Serves a runtime's commands on 127.0.0.1 for tools and agents —
 * `POST /commands/<command>` with the JSON arguments as the body, answered
 * with `{ok: true, result}` or `{ok: false, error: {code, message}}` — and
 * the Scripts panel at `/`, whose every button calls the same commands.
 *
 * Web pages of other sites cannot drive it: a command needs
 * `content-type: application/json` (so a browser asks first, and gets no
 * CORS answer), an `Origin` other than the server's own is refused, and
 * so is a `Host` other than 127.0.0.1 or localhost (DNS rebinding).
 *
 * @example
 * const server = await createScriptServer(editor.runtime, { port: 8787 });
 * await fetch(`${server.url}/commands/script.list`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
 */
export async function createScriptServer(runtime: ScriptRuntime, options: ScriptServerOptions = {}): Promise<ScriptServer> {
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  let port = 0;
  const send = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff", ...headers });
    res.end(body);
  };
  const sendJson = (res: ServerResponse, status: number, value: unknown, headers?: Record<string, string>) => send(res, status, "application/json", JSON.stringify(value), headers);
  const local = (host: string | undefined) => host === `127.0.0.1:${port}` || host === `localhost:${port}`;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // A request refused before its body is read leaves that body unread: its connection closes after the answer.
    const unread = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
      sendJson(res, status, fail(code, message), unread ? { ...headers, connection: "close" } : headers);
    if (!local(req.headers.host)) return refuse(403, "invalid_argument", `host: only 127.0.0.1:${port} or localhost:${port}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !local(origin.replace(/^http:\/\//, ""))) return refuse(403, "invalid_argument", `origin: ${origin} may not call this server; only pages it serves`);
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/" || path === "/index.html") {
      if (req.method === "GET" || req.method === "HEAD") return send(res, 200, "text/html; charset=utf-8", PANEL_PAGE);
      return refuse(405, "invalid_argument", `method: ${req.method} ${path} is not served; GET it`, { allow: "GET, HEAD" });
    }
    const match = /^\/commands\/([A-Za-z0-9_.]+)$/.exec(path);
    if (!match) return refuse(404, "not_found", `no route ${req.method} ${path.slice(0, 200)}`);
    if (req.method !== "POST") return refuse(405, "invalid_argument", "method: commands take POST with a JSON body", { allow: "POST" });
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") return refuse(415, "invalid_argument", "content-type: commands take application/json");
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) {
        // The rest of the body is not read: the connection closes after the answer.
        const socket = req.socket;
        res.once("finish", () => socket.destroy());
        return refuse(413, "invalid_argument", `body: at most ${maxBody} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString("utf8").trim();
    let args: unknown = {};
    if (text !== "") {
      try { args = JSON.parse(text); } catch { return sendJson(res, 400, fail("invalid_argument", "the body must be a JSON object of arguments")); }
    }
    const outcome = await runtime.dispatch(match[1]!, args);
    sendJson(res, outcome.ok ? 200 : STATUS[outcome.error.code] ?? 500, outcome);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, fail("internal", error instanceof Error ? error.message : String(error)));
      else res.destroy();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolveClose) => {
      server.closeAllConnections();
      server.close(() => resolveClose());
    }),
  };
}
