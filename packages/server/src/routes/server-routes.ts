import type { ServerLifecycle } from "../lifecycle/server-lifecycle.js";
import type { ServerDeps } from "../server-deps.js";
import type { RawRoute } from "./fetch-handler.js";
import { jsonResponse } from "./known-body.js";

/**
 * The server's own routes: `GET /healthz` (liveness: the process answers),
 * `GET /readyz` (readiness: 200 when the storage and every readiness check
 * answer, else 503 naming the failing checks, and 503 while shutting down)
 * and the token keys at `GET /.well-known/jwks.json`.
 */
export function serverRoutes(deps: ServerDeps, lifecycle: ServerLifecycle): RawRoute {
  return async (request, url) => {
    if (request.method !== "GET") return null;
    if (url.pathname === "/healthz") return jsonResponse({ status: "ok" });
    if (url.pathname === "/readyz") {
      const report = await lifecycle.readiness();
      // Probes must see the answer of now, never a cached one.
      return jsonResponse(report, { status: report.status === "ready" ? 200 : 503, headers: { "cache-control": "no-store" } });
    }
    if (url.pathname === "/.well-known/jwks.json") {
      return jsonResponse(deps.signer.jwks(), { headers: { "cache-control": "public, max-age=300" } });
    }
    return null;
  };
}
