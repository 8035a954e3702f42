import type { FetchHandler } from "../src/routes/fetch-handler.js";

/** A raw Connect unary call through a fetch handler: status and parsed JSON body. */
export async function rpc(fetch: FetchHandler | ((r: Request) => Promise<Response>), path: string, body: unknown = {}, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(new Request(`http://playfield.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }));
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { unparsed: text };
  }
  return { status: response.status, body: json };
}
