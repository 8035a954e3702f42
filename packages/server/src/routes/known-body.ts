/*
 * Responses that remember their body. Reading a Response's body back goes
 * through a web stream, which in Node 20 costs more than making the Response
 * (about 20 µs against 15 µs); a Response made here keeps its body beside it,
 * so the Node adapter writes it from memory. Any other Response is read
 * through its stream as before: this is a shortcut, never a requirement.
 */

const bodies = new WeakMap<Response, string | Uint8Array<ArrayBuffer> | null>();

/**
 * `new Response(body, init)`, remembered for adapters that write bodies themselves.
 *
 * @example
 * return bodyResponse(svg, { headers: { "content-type": "image/svg+xml" } });
 */
export function bodyResponse(body: string | Uint8Array<ArrayBuffer> | null, init?: ResponseInit): Response {
  const response = new Response(body, init);
  bodies.set(response, body);
  return response;
}

/**
 * `Response.json(value, init)`, remembered the same way.
 *
 * @example
 * return jsonResponse({ status: "ok" });
 */
export function jsonResponse(value: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return bodyResponse(JSON.stringify(value), { ...init, headers });
}

/** The body a Response was made with here (null: none), or undefined when it was made elsewhere. */
export function knownBody(response: Response): string | Uint8Array<ArrayBuffer> | null | undefined {
  return bodies.get(response);
}
