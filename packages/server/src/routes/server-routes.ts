import type { ServerLifecycle } from "../lifecycle/server-lifecycle.js";
import type { ServerDeps } from "../server-deps.js";
import { jsonAnswer, type RawRoute } from "./route.js";

/**
 * The server's own routes: `GET /healthz` (liveness: the process answers),
 * `GET /readyz` (readiness: 200 when the storage and every readiness check
 * answer, else 503 naming the failing checks, and 503 while shutting down)
 * and the token keys at `GET /.well-known/jwks.json`.
 */
export function serverRoutes(deps: ServerDeps, lifecycle: ServerLifecycle): RawRoute {
  return async (request) => {
    if (request.method !== "GET") return null;
    if (request.path === "/healthz") return jsonAnswer({ status: "ok" });
    if (request.path === "/readyz") {
      const report = await lifecycle.readiness();
      // Probes must see the answer of now, never a cached one.
      return jsonAnswer(report, report.status === "ready" ? 200 : 503, { "cache-control": "no-store" });
    }
    if (request.path === "/.well-known/jwks.json") {
      return jsonAnswer(deps.signer.jwks(), 200, { "cache-control": "public, max-age=300" });
    }
    return null;
  };
}
