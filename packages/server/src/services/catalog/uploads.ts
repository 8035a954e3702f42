import { fail, schemas, tables, type CatalogService, type MethodOutput, type MethodRequest, type Tx } from "@playfield/core";
import { bytesToHex } from "@noble/hashes/utils.js";
import { decodeBase64url } from "../../crypto/base64url.js";
import type { HandlerContext } from "../../rpc/handler-context.js";
import { contentUrl } from "./content-route.js";
import { CATALOG_LIMITS, utcDayStart } from "./config.js";

/*
 * UploadContent: one blob up to 8 MiB, stored once by its SHA-256 (same bytes,
 * same URL), served at GET /content/<sha256>. Every call counts against the
 * caller's daily upload limit, even for bytes stored before.
 */

type UploadRequest = MethodRequest<typeof CatalogService.methods.uploadContent>;
type UploadResponse = MethodOutput<typeof CatalogService.methods.uploadContent>;

/** `type/subtype` with optional parameters, as RFC 9110 spells a media type. */
const { CONTENT_MAX_BYTES } = schemas;

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(?:\s*;\s*[a-z0-9!#$&^_.+-]+=(?:[a-z0-9!#$&^_.+-]+|"[^"\\\r\n]*"))*$/i;

/** How many uploads the user made today (UTC). */
export async function uploadsToday(tx: Tx, userId: string, now: number): Promise<number> {
  return tx.count(tables.contentUploads, "byUser", { equals: [userId], range: { gte: utcDayStart(now) } });
}

async function checkDailyLimit(tx: Tx, userId: string, now: number): Promise<void> {
  if ((await uploadsToday(tx, userId, now)) >= CATALOG_LIMITS.dailyUploads) {
    throw fail.exhausted(`data: at most ${CATALOG_LIMITS.dailyUploads} uploads per day (UTC); try again tomorrow`);
  }
}

export async function uploadContent(req: UploadRequest, ctx: HandlerContext): Promise<UploadResponse> {
  const { deps } = ctx;
  const userId = ctx.user().userId;
  const contentType = req.contentType.trim().toLowerCase();
  if (!MEDIA_TYPE.test(contentType)) throw fail.invalid("contentType: a media type like image/png");
  // base64 of 8 MiB is at most ~11.2 M characters: check before decoding anything bigger.
  if (req.data.length > Math.ceil(CONTENT_MAX_BYTES / 3) * 4) throw fail.invalid("data: at most 8 MiB");
  const bytes = decodeBase64url(req.data.replace(/=+$/, "").replace(/[+/]/g, (c) => (c === "+" ? "-" : "_")));
  if (!bytes) throw fail.invalid("data: base64");
  if (bytes.length === 0) throw fail.invalid("data: required (at least one byte)");
  if (bytes.length > CONTENT_MAX_BYTES) throw fail.invalid("data: at most 8 MiB");
  // Refuse early, before hashing and storing bytes, when the day's uploads are used up.
  await deps.storage.transact((tx) => checkDailyLimit(tx, userId, deps.clock.now()));
  // Web Crypto: native speed in Node and browsers alike, off the JS thread where the runtime can.
  const sha256 = bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
  // Bytes first: a failed transaction leaves at worst an unreferenced blob, never a row without bytes.
  await deps.blobs.put(sha256, bytes);
  await deps.storage.transact(async (tx) => {
    const now = deps.clock.now();
    await checkDailyLimit(tx, userId, now);
    if (!(await tx.get(tables.contentBlobs, sha256))) {
      await tx.put(tables.contentBlobs, { sha256, contentType, size: bytes.length, createdAt: now });
    }
    await tx.put(tables.contentUploads, {
      id: deps.ids.id("upl"), userId, sha256, contentType, size: bytes.length, name: req.name, createdAt: now,
    });
  });
  return { url: contentUrl(sha256), sha256, size: bytes.length };
}
