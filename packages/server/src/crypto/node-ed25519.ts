/*
 * The Ed25519 backend on node:crypto (OpenSSL): the one the Node server
 * uses. Kept apart from every other crypto file so that those load where
 * `node:` modules do not exist.
 */
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { encodeBase64url } from "./base64url.js";
import type { Ed25519Backend } from "./ed25519-backend.js";

/**
 * The node:crypto backend: 6,000-12,000 verifies/s on 2 cores where noble
 * does 600-900 (bench/tokens.bench.ts). Keys are imported once as KeyObjects from their JWK form.
 */
export const nodeEd25519: Ed25519Backend = {
  name: "node",
  bind(key) {
    const x = encodeBase64url(key.publicKey);
    const privateKey = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", x, d: encodeBase64url(key.privateKey) }, format: "jwk" });
    const publicKey = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
    return {
      // Synchronous on purpose: a verify costs ~75 µs here, a sign ~25 µs.
      // The thread-pool form adds ~40 µs a call and would queue token checks
      // behind scrypt hashes (~100 ms each) sharing that pool; the
      // verified-token cache keeps repeat verifies off this path anyway.
      sign: async (data) => new Uint8Array(sign(null, data, privateKey)),
      async verify(signature, data) {
        try {
          return verify(null, data, publicKey, signature);
        } catch {
          return false;
        }
      },
    };
  },
};
