import { fail, tables, toErrorJson } from "@playfield/core";
import type { RawRoute } from "../../routes/fetch-handler.js";
import type { ServerDeps } from "../../server-deps.js";
import { bodyResponse, jsonResponse } from "../../routes/known-body.js";

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
  return async (request, url) => {
    if (!url.pathname.startsWith("/content/")) return null;
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    const sha256 = CONTENT_ROUTE.exec(url.pathname)?.[1];
    const meta = sha256 ? await deps.storage.transact((tx) => tx.get(tables.contentBlobs, sha256)) : undefined;
    const bytes = sha256 && meta ? await deps.blobs.get(sha256) : null;
    if (!sha256 || !meta || !bytes) {
      return jsonResponse(toErrorJson(fail.notFound("content: no blob with this hash")), { status: 404 });
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
    if (request.headers.get("if-none-match")?.split(",").some((tag) => tag.trim() === etag)) {
      return bodyResponse(null, { status: 304, headers });
    }
    headers["content-length"] = String(bytes.byteLength);
    return bodyResponse(request.method === "HEAD" ? null : new Uint8Array(bytes), { status: 200, headers });
  };
}
