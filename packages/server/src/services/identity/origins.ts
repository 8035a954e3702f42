import type { ServerConfig } from "../../server-deps.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a handoff code may be made for an origin: one of the configured web
 * origins, or (outside production) any loopback origin, such as a dev server
 * on `http://localhost:5173`. The value must be an origin exactly: scheme,
 * host and port, no path.
 */
export function isAllowedOrigin(origin: string, config: Pick<ServerConfig, "webOrigins" | "environment">): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  if (config.webOrigins.includes(origin)) return true;
  return config.environment !== "production" && (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.has(url.hostname);
}
