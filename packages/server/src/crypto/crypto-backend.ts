/**
 * CryptoBackend names the implementations the server's crypto runs on:
 * `node` is node:crypto (OpenSSL, the thread pool; Node only), `noble` is
 * @noble/ed25519 and @noble/hashes (pure JS, anywhere). Both give the same
 * results: tokens and password hashes made by one are accepted by the other.
 */
export const CryptoBackend = {
  Node: "node",
  Noble: "noble",
} as const;
export type CryptoBackend = (typeof CryptoBackend)[keyof typeof CryptoBackend];
