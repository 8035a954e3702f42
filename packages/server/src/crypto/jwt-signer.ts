/*
 * The TokenSigner over any Ed25519 backend. Pure: with the noble backend it
 * runs in browsers and workers; create-token-signer.ts picks node:crypto.
 */
import { Code, PlayfieldError, isExpired, type TokenClaims } from "@playfield/core";
import { decodeBase64url, encodeBase64url, utf8 } from "./base64url.js";
import type { BoundEd25519Key, Ed25519Backend } from "./ed25519-backend.js";
import type { SigningKey } from "./signing-key.js";
import { claimsFromPayload } from "./token-claims-shape.js";
import type { Jwks, TokenSigner } from "../ports/token-signer.js";
import { createVerifiedTokenCache } from "./verified-token-cache.js";

/** How many verified tokens the signer remembers by default. */
export const DEFAULT_TOKEN_CACHE_SIZE = 10_000;

/** Longest token text looked at; ours are ~300 characters. */
const MAX_TOKEN_LENGTH = 8192;

export interface JwtSignerOptions {
  /** The keys: the first signs, any verifies (rotation). At least one. */
  keys: readonly SigningKey[];
  ed25519: Ed25519Backend;
  /** Verified tokens remembered (LRU); 0 turns the cache off. */
  cacheSize?: number;
}

interface PreparedKey {
  kid: string;
  /** The encoded JWT header naming this key. */
  header: string;
  bound: BoundEd25519Key;
}

/**
 * A TokenSigner on the given Ed25519 backend. A token verified once is
 * remembered, so presenting it again skips the signature check; its expiry
 * is still judged on every call.
 *
 * @example
 * const signer = createJwtSigner({ keys: [generateSigningKey()], ed25519: nobleEd25519 });
 */
export function createJwtSigner(options: JwtSignerOptions): TokenSigner {
  if (options.keys.length === 0) throw new RangeError("token signer: at least one signing key");
  const byKid = new Map<string, PreparedKey>();
  for (const key of options.keys) {
    if (byKid.has(key.kid)) throw new RangeError(`token signer: two keys named ${key.kid}`);
    const header = encodeBase64url(utf8(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid: key.kid })));
    byKid.set(key.kid, { kid: key.kid, header, bound: options.ed25519.bind(key) });
  }
  const current = byKid.get(options.keys[0]!.kid)!;
  const jwks: Jwks = {
    keys: options.keys.map((key) => ({ kty: "OKP", crv: "Ed25519", x: encodeBase64url(key.publicKey), kid: key.kid, alg: "EdDSA", use: "sig" })),
  };
  const cache = createVerifiedTokenCache(options.cacheSize ?? DEFAULT_TOKEN_CACHE_SIZE);

  async function verifySignature(token: string): Promise<TokenClaims> {
    if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) throw unauthenticated("malformed token");
    const parts = token.split(".");
    if (parts.length !== 3) throw unauthenticated("malformed token");
    const [headerText, payloadText, signatureText] = parts as [string, string, string];
    const header = parseJsonPart(headerText);
    if (typeof header !== "object" || header === null) throw unauthenticated("malformed token header");
    const { alg, kid, typ } = header as Record<string, unknown>;
    if (alg !== "EdDSA") throw unauthenticated("unsupported token algorithm");
    if (typ !== undefined && typ !== "JWT") throw unauthenticated("unsupported token type");
    const key = typeof kid === "string" ? byKid.get(kid) : undefined;
    if (key === undefined) throw unauthenticated("unknown token signing key");
    const signature = decodeBase64url(signatureText);
    if (signature === undefined || signature.length !== 64) throw unauthenticated("malformed token signature");
    const signedPart = utf8(token.slice(0, headerText.length + 1 + payloadText.length));
    if (!(await key.bound.verify(signature, signedPart))) throw unauthenticated("bad token signature");
    const claims = claimsFromPayload(parseJsonPart(payloadText));
    if (claims === undefined) throw unauthenticated("malformed token claims");
    return claims;
  }

  return {
    async sign(claims) {
      const payload = encodeBase64url(utf8(JSON.stringify(claims)));
      const signingInput = `${current.header}.${payload}`;
      const signature = await current.bound.sign(utf8(signingInput));
      return `${signingInput}.${encodeBase64url(signature)}`;
    },

    async verify(token, nowMs) {
      // NaN would make every token look unexpired: refuse it outright.
      if (!Number.isFinite(nowMs)) throw new RangeError("token signer: nowMs is not a finite time");
      const cached = cache.get(token);
      const claims = cached ?? (await verifySignature(token));
      if (isExpired(claims, nowMs)) {
        cache.delete(token);
        throw unauthenticated("token expired");
      }
      if (cached === undefined) cache.set(token, claims);
      // A copy, so that a caller changing its claims cannot change the cache's.
      return { ...claims };
    },

    jwks: () => structuredClone(jwks),
  };
}

/** The JSON value of one base64url part of a token, or undefined. */
function parseJsonPart(text: string): unknown {
  const bytes = decodeBase64url(text);
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function unauthenticated(reason: string): PlayfieldError {
  return new PlayfieldError(Code.Unauthenticated, reason);
}
