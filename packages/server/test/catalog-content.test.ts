import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { member } from "./catalog-fixtures.js";

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

describe.each(TRANSPORTS)("CatalogService.uploadContent and GET /content (%s)", (kind) => {
  it("should store a blob by its SHA-256 and serve it with its content type and immutable caching", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const upload = await ada.client.catalog.uploadContent({ data: b64(bytes), contentType: "image/png", name: "icon.png" });
    expect(upload).toEqual({ url: `/content/${sha(bytes)}`, sha256: sha(bytes), size: bytes.length });
    const response = await t.fetch(new URL(upload.url, t.baseUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("etag")).toBe(`"${upload.sha256}"`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    const again = await t.fetch(new URL(upload.url, t.baseUrl), { headers: { "if-none-match": `"${upload.sha256}"` } });
    expect(again.status).toBe(304);
  });

  it("should give the same bytes the same URL and store them once, counting each upload", async () => {
    await using t = await testServer(kind);
    const ada = await member(t), bob = await member(t);
    const first = await ada.client.catalog.uploadContent({ data: b64("same scene"), contentType: "application/json" });
    const second = await bob.client.catalog.uploadContent({ data: b64("same scene"), contentType: "text/plain" });
    expect(second.url).toBe(first.url);
    const { blobs, uploads } = await t.server.deps.storage.transact(async (tx) => ({
      blobs: await tx.query(tables.contentBlobs, "primary"),
      uploads: await tx.query(tables.contentUploads, "byUser", { equals: [ada.user.userId] }),
    }));
    expect(blobs).toHaveLength(1);
    // The first upload's content type is the one the bytes are served with.
    expect(blobs[0]!.contentType).toBe("application/json");
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ sha256: first.sha256, userId: ada.user.userId });
  });

  it("should refuse a blob over 8 MiB, an empty one and a bad content type with invalid_argument", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const tooBig = new Uint8Array(8 * 1024 * 1024 + 1);
    await expectError(ada.client.catalog.uploadContent({ data: b64(tooBig), contentType: "application/octet-stream" }), Code.InvalidArgument, /^data: at most 8 MiB/);
    await expectError(ada.client.catalog.uploadContent({ data: "", contentType: "image/png" }), Code.InvalidArgument, /^data: /);
    await expectError(ada.client.catalog.uploadContent({ data: b64("x"), contentType: "not a type" }), Code.InvalidArgument, /^contentType: a media type/);
    const uploads = await t.server.deps.storage.transact((tx) => tx.count(tables.contentUploads, "byUser", { equals: [ada.user.userId] }));
    expect(uploads).toBe(0);
  });

  it("should take exactly 8 MiB", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const bytes = new Uint8Array(8 * 1024 * 1024).fill(7);
    expect((await ada.client.catalog.uploadContent({ data: b64(bytes), contentType: "application/octet-stream" })).size).toBe(bytes.length);
  });

  it("should answer resource_exhausted beyond the daily upload limit, until the next UTC day", async () => {
    await using t = await testServer(kind);
    const ada = await member(t);
    const now = t.server.clock.now();
    // Start right after midnight UTC so the whole test stays in one day.
    t.server.clock.advance(86_400_000 - (now % 86_400_000) + 1000);
    for (let i = 0; i < 100; i++) await ada.client.catalog.uploadContent({ data: b64(`blob ${i}`), contentType: "text/plain" });
    await expectError(ada.client.catalog.uploadContent({ data: b64("one more"), contentType: "text/plain" }), Code.ResourceExhausted, /at most 100 uploads per day/);
    t.server.clock.advance(86_400_000);
    await expect(ada.client.catalog.uploadContent({ data: b64("one more"), contentType: "text/plain" })).resolves.toBeTruthy();
  });

  it("should answer 404 not_found for unknown or malformed hashes", async () => {
    await using t = await testServer(kind);
    for (const path of [`/content/${"c".repeat(64)}`, "/content/not-a-hash"]) {
      const response = await t.fetch(new URL(path, t.baseUrl));
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe("not_found");
    }
  });

  it("should refuse guests and anonymous callers", async () => {
    await using t = await testServer(kind);
    const guest = await member(t, { guest: true });
    await expectError(guest.client.catalog.uploadContent({ data: b64("x"), contentType: "text/plain" }), Code.PermissionDenied);
    await expectError(t.client().catalog.uploadContent({ data: b64("x"), contentType: "text/plain" }), Code.Unauthenticated);
  });
});
