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

/**
 * Serves a runtime's commands on 127.0.0.1 for tools and agents —
 * `POST /commands/<command>` with the JSON arguments as the body, answered
 * with `{ok: true, result}` or `{ok: false, error: {code, message}}` — and
 * the Scripts panel at `/`, whose every button calls the same commands.
 *
 * @example
 * const server = await createScriptServer(editor.runtime, { port: 8787 });
 * await fetch(`${server.url}/commands/script.list`, { method: "POST", body: "{}" });
 */
export async function createScriptServer(runtime: ScriptRuntime, options: ScriptServerOptions = {}): Promise<ScriptServer> {
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
    res.end(body);
  };
  const sendJson = (res: ServerResponse, status: number, value: unknown) => send(res, status, "application/json", JSON.stringify(value));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (req.method === "GET" && (path === "/" || path === "/index.html")) return send(res, 200, "text/html; charset=utf-8", PANEL_PAGE);
    const match = /^\/commands\/([A-Za-z0-9_.]+)$/.exec(path);
    if (!match) return sendJson(res, 404, { ok: false, error: { code: "not_found", message: `no route ${req.method} ${path}` } });
    if (req.method !== "POST") return sendJson(res, 405, { ok: false, error: { code: "invalid_argument", message: "commands take POST with a JSON body" } });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) return sendJson(res, 413, { ok: false, error: { code: "invalid_argument", message: `the body is over ${maxBody} bytes` } });
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString("utf8").trim();
    let args: unknown = {};
    if (text !== "") {
      try { args = JSON.parse(text); } catch { return sendJson(res, 400, { ok: false, error: { code: "invalid_argument", message: "the body must be a JSON object of arguments" } }); }
    }
    const outcome = await runtime.dispatch(match[1]!, args);
    sendJson(res, outcome.ok ? 200 : STATUS[outcome.error.code] ?? 500, outcome);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: "internal", message: error instanceof Error ? error.message : String(error) } });
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolveClose) => {
      server.closeAllConnections();
      server.close(() => resolveClose());
    }),
  };
}
