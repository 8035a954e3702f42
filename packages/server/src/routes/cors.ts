import { Code, PlayfieldError } from "@playfield/core";
import { errorAnswer, type Answer } from "../rpc/rpc-handler.js";
import type { ServerConfig } from "../server-deps.js";
import { isAllowedOrigin } from "../services/identity/origins.js";

/*
 * CORS: which web pages on other origins may call the API, and the headers
 * that tell their browser so. The allowed origins are those RedeemHandoff
 * accepts: the configured `webOrigins`, and loopback origins outside
 * production (a Vite dev server on http://localhost:5173). See docs/protocol.md.
 */

/** The headers a page may send: the client's (authorization, content-type, x-svc-client), Connect's and a request id. */
export const CORS_ALLOW_HEADERS = "authorization, content-type, x-svc-client, connect-protocol-version, connect-timeout-ms, x-user-agent, x-request-id";
// The answer headers a page may read beyond the simple ones: the request id, to quote in a report.
const EXPOSE_HEADERS = "x-request-id";
const ALLOW_METHODS = "GET, POST, OPTIONS";
// How long a browser may keep a preflight's answer (Chromium keeps at most 2 hours).
const MAX_AGE_SECONDS = "7200";
// Origins whose verdict is remembered: a page calls from one origin, so a few cover a deployment;
// past this many (a client making origins up) each is checked again rather than kept.
const REMEMBERED_ORIGINS = 256;

/** The CORS policy of a server. */
export interface Cors {
  /** Whether pages of this origin may call the API. */
  allows(origin: string): boolean;
  /**
   * An answer's headers with CORS's added for a request from `origin`: the
   * origin echoed when allowed (never `*`, and no credentials: the API takes
   * bearer tokens, not cookies), and `Vary: Origin` in every case.
   */
  withHeaders(headers: Record<string, string>, origin: string | null): Record<string, string>;
  /** The answer to a preflight (`OPTIONS`) request to any path. */
  preflight(request: { origin: string | null; privateNetwork: boolean }): Answer;
  /**
   * Whether a WebSocket upgrade may proceed: no `Origin` (not a browser),
   * the server's own origin (a page it served), or an allowed one.
   */
  allowsUpgrade(origin: string | undefined, host: string | undefined): boolean;
}

/**
 * Creates the CORS policy of a server's configuration.
 *
 * @example
 * const cors = createCors({ webOrigins: ["https://game.example"], environment: "production" });
 * cors.allows("https://game.example"); // true
 */
export function createCors(config: Pick<ServerConfig, "webOrigins" | "environment">): Cors {
  const verdicts = new Map<string, boolean>();
  const allows = (origin: string) => {
    let allowed = verdicts.get(origin);
    if (allowed === undefined) {
      allowed = isAllowedOrigin(origin, config);
      if (verdicts.size < REMEMBERED_ORIGINS) verdicts.set(origin, allowed);
    }
    return allowed;
  };
  return {
    allows,
    withHeaders(headers, origin) {
      const vary = headers.vary ? `${headers.vary}, origin` : "origin";
      return origin !== null && allows(origin)
        ? { ...headers, "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSE_HEADERS, vary }
        : { ...headers, vary };
    },
    preflight({ origin, privateNetwork }) {
      if (origin === null) return { status: 204, headers: { allow: ALLOW_METHODS }, body: "" };
      if (!allows(origin)) {
        return errorAnswer(new PlayfieldError(Code.PermissionDenied, `origin ${origin} is not allowed: add it to the server's webOrigins`), { vary: "origin" });
      }
      return {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": ALLOW_METHODS,
          "access-control-allow-headers": CORS_ALLOW_HEADERS,
          "access-control-max-age": MAX_AGE_SECONDS,
          // Chromium asks before a public page reaches a private address; an allowed origin may.
          ...(privateNetwork ? { "access-control-allow-private-network": "true" } : {}),
          vary: "origin",
        },
        body: "",
      };
    },
    allowsUpgrade(origin, host) {
      if (origin === undefined) return true;
      if (allows(origin)) return true;
      try {
        return host !== undefined && new URL(origin).host === host;
      } catch {
        return false;
      }
    },
  };
}
