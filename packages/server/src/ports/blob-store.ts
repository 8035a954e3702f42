import { tables, type Storage } from "@playfield/core";

/**
 * Where uploaded blobs' bytes live, by their lowercase hex SHA-256. A small
 * port so an integrator can put them in S3, GCS or a CDN origin; metadata
 * (content type, size, uploads) stays in the storage port's tables.
 * `put` of bytes already stored is a no-op: content addressing makes it safe.
 */
export interface BlobStore {
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  get(sha256: string): Promise<Uint8Array | null>;
  has(sha256: string): Promise<boolean>;
}

/** The in-memory BlobStore: a Map from hash to bytes. */
export function createMemoryBlobStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async put(sha256, bytes) {
      if (!blobs.has(sha256)) blobs.set(sha256, bytes);
    },
    async get(sha256) {
      return blobs.get(sha256) ?? null;
    },
    async has(sha256) {
      return blobs.has(sha256);
    },
  };
}

/**
 * The BlobStore in the storage port's `blob_bytes` table, one row per hash:
 * the bytes live and persist wherever the rows do (a database, a data
 * folder), so a server needs nothing else to keep uploads across restarts.
 */
export function createStorageBlobStore(storage: Storage): BlobStore {
  return {
    async put(sha256, bytes) {
      await storage.transact(async (tx) => {
        if (!(await tx.get(tables.blobBytes, sha256))) await tx.put(tables.blobBytes, { sha256, bytes });
      });
    },
    async get(sha256) {
      const row = await storage.transact((tx) => tx.get(tables.blobBytes, sha256), { readOnly: true });
      return row?.bytes ?? null;
    },
    async has(sha256) {
      return (await storage.transact((tx) => tx.get(tables.blobBytes, sha256), { readOnly: true })) !== undefined;
    },
  };
}
