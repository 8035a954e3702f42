import type { ServerDeps } from "../server-deps.js";
import type { RawRoute } from "./fetch-handler.js";
import { jsonResponse } from "./known-body.js";

/** The server's own routes: `GET /healthz` and the token keys at `GET /.well-known/jwks.json`. */
export function serverRoutes(deps: ServerDeps): RawRoute {
  return (request, url) => {
    if (request.method !== "GET") return null;
    if (url.pathname === "/healthz") return jsonResponse({ status: "ok" });
    if (url.pathname === "/.well-known/jwks.json") {
      return jsonResponse(deps.signer.jwks(), { headers: { "cache-control": "public, max-age=300" } });
    }
    return null;
  };
}
