/*
 * The Ed25519 backend on @noble/ed25519: pure JS, for browsers and workers
 * (Node uses node-ed25519.ts, about ten times faster to verify: bench/tokens.bench.ts).
 */
import * as ed from "@noble/ed25519";
import type { Ed25519Backend } from "./ed25519-backend.js";

/**
 * The @noble/ed25519 backend. It uses noble's async API, whose SHA-512 is
 * Web Crypto's, and verifies by RFC 8032's strict rules (`zip215: false`),
 * as OpenSSL does, so both backends accept exactly the same signatures.
 */
export const nobleEd25519: Ed25519Backend = {
  name: "noble",
  bind(key) {
    const seed = key.privateKey, publicKey = key.publicKey;
    return {
      sign: (data) => ed.signAsync(data, seed),
      async verify(signature, data) {
        try {
          return await ed.verifyAsync(signature, data, publicKey, { zip215: false });
        } catch {
          return false;
        }
      },
    };
  },
};
