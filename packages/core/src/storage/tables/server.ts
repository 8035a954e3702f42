import { defineTable } from "../port.js";

/* The server's own tables: what it must keep across restarts besides the services' rows. */

/** A token signing key, created on a server's first start so tokens outlive restarts. */
export interface SigningKeyRow {
  kid: string;
  /** The 32-byte Ed25519 seed, base64url. Secret: whoever reads it can sign tokens. */
  seed: string;
  createdAt: number;
}

export const signingKeys = defineTable<SigningKeyRow>()({
  name: "signing_keys",
  primaryKey: (row) => row.kid,
  indexes: {
    byCreated: { key: (row) => [row.createdAt] },
  },
});

/** An uploaded blob's bytes by their SHA-256, for servers that keep blobs in storage. */
export interface BlobBytesRow {
  sha256: string;
  bytes: Uint8Array;
}

export const blobBytes = defineTable<BlobBytesRow>()({
  name: "blob_bytes",
  primaryKey: (row) => row.sha256,
  indexes: {},
});
