import { fail, tables, toErrorJson } from "@playfield/core";
import { jsonAnswer, type RawRoute } from "../../routes/route.js";
import type { ServerDeps } from "../../server-deps.js";

/** The URL UploadContent answers: a path on the API's own origin. */
export const contentUrl = (sha256: string) => `/content/${sha256}`;

const CONTENT_ROUTE = /^\/content\/([0-9a-f]{64})$/;
/** A year: the bytes behind a hash never change. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * `GET /content/<sha256>` (and HEAD): the blob with its content type and
 * immutable caching headers; `If-None-Match` with its ETag answers 304.
 * Blobs are served as inert data (nosniff, a sandboxing CSP) so an uploaded
 * HTML page cannot run script on the API's origin.
 */
export function contentRoute(deps: ServerDeps): RawRoute {
  return async (request) => {
    if (!request.path.startsWith("/content/")) return null;
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    const sha256 = CONTENT_ROUTE.exec(request.path)?.[1];
    const meta = sha256 ? await deps.storage.transact((tx) => tx.get(tables.contentBlobs, sha256)) : undefined;
    const bytes = sha256 && meta ? await deps.blobs.get(sha256) : null;
    if (!sha256 || !meta || !bytes) {
      return jsonAnswer(toErrorJson(fail.notFound("content: no blob with this hash")), 404);
    }
    const etag = `"${sha256}"`;
    const headers: Record<string, string> = {
      "content-type": meta.contentType,
      "cache-control": IMMUTABLE,
      etag,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "access-control-allow-origin": "*",
    };
    if (request.header("if-none-match")?.split(",").some((tag) => tag.trim() === etag)) {
      return { status: 304, headers, body: null };
    }
    headers["content-length"] = String(bytes.byteLength);
    return { status: 200, headers, body: request.method === "HEAD" ? null : new Uint8Array(bytes) };
  };
}
