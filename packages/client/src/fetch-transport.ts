import { Code, PlayfieldError, errorFromJson } from "@playfield/core/wire";
import { abortable } from "./deadline.js";
import type { UnaryFn, UnaryRequest } from "./interceptor.js";

/** Options of the fetch transport. */
export interface FetchTransportOptions {
  /** The fetch to use; `globalThis.fetch` (looked up at each call, so mocks installed later apply) when left out. */
  fetch?: typeof globalThis.fetch;
  /** Turns an answer's JSON into the full message of the named type. */
  decode: (messageName: string, json: Record<string, unknown>) => Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
  // An empty body reads as `{}`, as the protocol says of requests.
  if (text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A failure before an answer was read: the signal's reason if the call was aborted, else the network's fault. */
function networkError(request: UnaryRequest, reason: unknown): PlayfieldError {
  if (request.signal.aborted) return PlayfieldError.from(request.signal.reason, Code.Canceled);
  const message = reason instanceof Error ? reason.message : String(reason);
  return new PlayfieldError(Code.Unavailable, `${request.method.path}: ${message}`, { cause: reason });
}

/**
 * Creates the transport that sends Connect unary JSON calls with fetch. It
 * rejects with a `PlayfieldError` only: the server's error JSON, the HTTP
 * status's code when the body is not one, `unavailable` when the network
 * fails, and the signal's reason when the call is aborted.
 */
export function createFetchTransport(options: FetchTransportOptions): UnaryFn {
  return async (request) => {
    const fetch = options.fetch ?? globalThis.fetch;
    let text: string;
    let response: Response;
    try {
      // Raced with the signal too: some fetch implementations ignore it, or
      // stop honouring it once the headers are in.
      response = await abortable(fetch(request.url, {
        method: "POST",
        headers: request.header,
        body: JSON.stringify(request.message),
        signal: request.signal,
      }), request.signal);
      text = await abortable(response.text(), request.signal);
    } catch (reason) {
      throw networkError(request, reason);
    }
    const json = parseJson(text);
    if (!response.ok) throw errorFromJson(json, response.status);
    if (!isObject(json)) {
      throw new PlayfieldError(Code.Internal, `${request.method.path}: the answer is not a JSON object`, { isWireError: true });
    }
    return { status: response.status, header: response.headers, message: options.decode(request.method.output, json) };
  };
}
