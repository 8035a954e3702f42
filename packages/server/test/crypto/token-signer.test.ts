import { createPublicKey, verify as opensslVerify } from "node:crypto";
import { Code, PlayfieldError, TokenType, mintClaims, type TokenClaims } from "@playfield/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CryptoBackend } from "../../src/crypto/crypto-backend.js";
import { createTokenSigner } from "../../src/crypto/create-token-signer.js";
import type { Ed25519Backend } from "../../src/crypto/ed25519-backend.js";
import { createJwtSigner } from "../../src/crypto/jwt-signer.js";
import { nodeEd25519 } from "../../src/crypto/node-ed25519.js";
import { generateSigningKey } from "../../src/crypto/signing-key.js";
import type { TokenSigner } from "../../src/ports/token-signer.js";

const NOW = Date.UTC(2026, 0, 1);
const KEY = generateSigningKey("k-current");
const OLD_KEY = generateSigningKey("k-previous");

const accessClaims = (lifetimeSeconds = 900): TokenClaims =>
  mintClaims({ sub: "u_1", sid: "s_1", typ: TokenType.Access }, NOW, lifetimeSeconds);

/** Awaits a verify that must fail, and gives its reason. */
async function unauthenticatedReason(signer: TokenSigner, token: string, nowMs = NOW): Promise<string> {
  const error = await signer.verify(token, nowMs).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PlayfieldError);
  expect((error as PlayfieldError).code).toBe(Code.Unauthenticated);
  return (error as PlayfieldError).rawMessage;
}

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

for (const backend of Object.values(CryptoBackend)) {
  describe(`createTokenSigner (${backend})`, () => {
    const signer = createTokenSigner({ keys: [KEY], backend });

    it("should give back the claims it signed", async () => {
      const claims = { ...accessClaims(), scope: "studio", jti: "j1" };
      expect(await signer.verify(await signer.sign(claims), NOW)).toEqual(claims);
    });

    it("should write a compact JWT with header {alg: EdDSA, typ: JWT, kid}", async () => {
      const token = await signer.sign(accessClaims());
      const [header, payload, signature] = token.split(".");
      expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "EdDSA", typ: "JWT", kid: KEY.kid });
      expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toEqual(accessClaims());
      expect(Buffer.from(signature!, "base64url")).toHaveLength(64);
    });

    it("should sign what OpenSSL verifies with the published JWK", async () => {
      const token = await signer.sign(accessClaims());
      const [jwk] = signer.jwks().keys;
      const publicKey = createPublicKey({ key: { kty: jwk!.kty, crv: jwk!.crv, x: jwk!.x }, format: "jwk" });
      const cut = token.lastIndexOf(".");
      expect(opensslVerify(null, Buffer.from(token.slice(0, cut)), publicKey, Buffer.from(token.slice(cut + 1), "base64url"))).toBe(true);
    });

    it("should accept a token up to, and not at, its exp", async () => {
      const claims = accessClaims(60);
      const token = await signer.sign(claims);
      await expect(signer.verify(token, claims.exp * 1000 - 1)).resolves.toEqual(claims);
      expect(await unauthenticatedReason(signer, token, claims.exp * 1000)).toBe("token expired");
    });

    it("should reject a token whose payload was changed", async () => {
      const [header, , signature] = (await signer.sign(accessClaims())).split(".");
      const forged = `${header}.${b64json({ ...accessClaims(), sub: "u_admin" })}.${signature}`;
      expect(await unauthenticatedReason(signer, forged)).toBe("bad token signature");
    });

    it("should reject a token signed by a key it does not hold, even under a known kid", async () => {
      const stranger = createTokenSigner({ keys: [{ ...generateSigningKey(), kid: KEY.kid }], backend });
      expect(await unauthenticatedReason(signer, await stranger.sign(accessClaims()))).toBe("bad token signature");
    });

    it("should reject a token naming an unknown kid", async () => {
      const stranger = createTokenSigner({ keys: [generateSigningKey("k-other")], backend });
      expect(await unauthenticatedReason(signer, await stranger.sign(accessClaims()))).toBe("unknown token signing key");
    });

    it("should reject alg none and other algorithms", async () => {
      const [, payload, signature] = (await signer.sign(accessClaims())).split(".");
      for (const alg of ["none", "HS256", "ES256", "eddsa"]) {
        const token = `${b64json({ alg, typ: "JWT", kid: KEY.kid })}.${payload}.${signature}`;
        expect(await unauthenticatedReason(signer, token)).toBe("unsupported token algorithm");
      }
      expect(await unauthenticatedReason(signer, `${b64json({ alg: "none" })}.${payload}.`)).toBe("unsupported token algorithm");
    });

    it("should reject a validly signed payload that is not claims", async () => {
      const bare = createTokenSigner({ keys: [KEY], backend });
      for (const payload of [{ sub: "u_1", sid: "s_1", typ: "refresh", iat: 1, exp: 2 }, { sub: "u_1", sid: "s_1", typ: "access", iat: 1, exp: "2" }, { sub: 1, sid: "s", typ: "access", iat: 1, exp: 2 }]) {
        const token = await bare.sign(payload as unknown as TokenClaims);
        expect(await unauthenticatedReason(signer, token)).toBe("malformed token claims");
      }
    });

    it("should reject any string that is not a token it signed, with unauthenticated and nothing else", async () => {
      await fc.assert(fc.asyncProperty(tokenLike(), async (text) => {
        await unauthenticatedReason(signer, text);
      }), { numRuns: 300 });
    });

    it("should reject any one-character change to a token it signed", async () => {
      const token = await signer.sign(accessClaims());
      await fc.assert(fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(..."AQgw-_.x="), async (at, c) => {
        fc.pre(token[at] !== c);
        await unauthenticatedReason(signer, token.slice(0, at) + c + token.slice(at + 1));
      }), { numRuns: backend === "noble" ? 40 : 200 });
    });

    it("should give back any claims it signed", async () => {
      await fc.assert(fc.asyncProperty(claimsArb(), async (claims) => {
        expect(await signer.verify(await signer.sign(claims), claims.iat * 1000)).toEqual(claims);
      }), { numRuns: backend === "noble" ? 20 : 100 });
    });

    it("should verify with any of its keys and sign with the first (rotation)", async () => {
      const before = createTokenSigner({ keys: [OLD_KEY], backend });
      const after = createTokenSigner({ keys: [KEY, OLD_KEY], backend });
      const oldToken = await before.sign(accessClaims());
      await expect(after.verify(oldToken, NOW)).resolves.toEqual(accessClaims());
      const newToken = await after.sign(accessClaims());
      expect(JSON.parse(Buffer.from(newToken.split(".")[0]!, "base64url").toString()).kid).toBe(KEY.kid);
      expect(await unauthenticatedReason(before, newToken)).toBe("unknown token signing key");
    });

    it("should publish every key as an Ed25519 JWK", () => {
      const jwks = createTokenSigner({ keys: [KEY, OLD_KEY], backend }).jwks();
      expect(jwks).toEqual({
        keys: [KEY, OLD_KEY].map((key) => ({ kty: "OKP", crv: "Ed25519", x: Buffer.from(key.publicKey).toString("base64url"), kid: key.kid, alg: "EdDSA", use: "sig" })),
      });
      expect(JSON.stringify(jwks)).not.toContain(Buffer.from(KEY.privateKey).toString("base64url"));
    });

    it("should make a key of its own when given none", async () => {
      const own = createTokenSigner({ backend });
      expect(own.jwks().keys).toHaveLength(1);
      await expect(own.verify(await own.sign(accessClaims()), NOW)).resolves.toEqual(accessClaims());
    });
  });
}

describe("createTokenSigner across backends", () => {
  const node = createTokenSigner({ keys: [KEY], backend: "node" });
  const noble = createTokenSigner({ keys: [KEY], backend: "noble" });

  it("should make the same token with either backend (Ed25519 is deterministic)", async () => {
    expect(await node.sign(accessClaims())).toBe(await noble.sign(accessClaims()));
  });

  it("should verify with one backend what the other signed", async () => {
    await expect(noble.verify(await node.sign(accessClaims()), NOW)).resolves.toEqual(accessClaims());
    await expect(node.verify(await noble.sign(accessClaims()), NOW)).resolves.toEqual(accessClaims());
  });

  it("should default to the node backend", async () => {
    expect(await createTokenSigner({ keys: [KEY] }).sign(accessClaims())).toBe(await node.sign(accessClaims()));
  });
});

describe("createJwtSigner", () => {
  /** The node backend, counting signature checks. */
  function countingBackend(): { backend: Ed25519Backend; verifies: () => number } {
    let verifies = 0;
    return {
      verifies: () => verifies,
      backend: {
        name: "counting",
        bind(key) {
          const bound = nodeEd25519.bind(key);
          return { sign: bound.sign, verify: (signature, data) => { verifies++; return bound.verify(signature, data); } };
        },
      },
    };
  }

  it("should check a token's signature once, then answer from its cache", async () => {
    const counting = countingBackend();
    const signer = createJwtSigner({ keys: [KEY], ed25519: counting.backend });
    const token = await signer.sign(accessClaims());
    for (let i = 0; i < 5; i++) await expect(signer.verify(token, NOW + i * 1000)).resolves.toEqual(accessClaims());
    expect(counting.verifies()).toBe(1);
  });

  it("should still judge expiry on a cache hit", async () => {
    const counting = countingBackend();
    const signer = createJwtSigner({ keys: [KEY], ed25519: counting.backend });
    const claims = accessClaims(60);
    const token = await signer.sign(claims);
    await signer.verify(token, NOW);
    expect(await unauthenticatedReason(signer, token, claims.exp * 1000)).toBe("token expired");
    expect(counting.verifies()).toBe(1);
  });

  it("should not cache a failed verification", async () => {
    const counting = countingBackend();
    const signer = createJwtSigner({ keys: [KEY], ed25519: counting.backend });
    const claims = accessClaims(60);
    const token = await signer.sign(claims);
    await unauthenticatedReason(signer, token, claims.exp * 1000);
    await unauthenticatedReason(signer, token, claims.exp * 1000);
    // A verify that failed on expiry was not remembered: an earlier time checks the signature again.
    await signer.verify(token, NOW);
    expect(counting.verifies()).toBe(3);
  });

  it("should check the signature every time with cacheSize 0", async () => {
    const counting = countingBackend();
    const signer = createJwtSigner({ keys: [KEY], ed25519: counting.backend, cacheSize: 0 });
    const token = await signer.sign(accessClaims());
    await signer.verify(token, NOW);
    await signer.verify(token, NOW);
    expect(counting.verifies()).toBe(2);
  });

  it("should forget the least recently used token past cacheSize", async () => {
    const counting = countingBackend();
    const signer = createJwtSigner({ keys: [KEY], ed25519: counting.backend, cacheSize: 2 });
    const [a, b, c] = await Promise.all(["a", "b", "c"].map((sub) => signer.sign({ ...accessClaims(), sub })));
    for (const token of [a!, b!, c!, c!, b!]) await signer.verify(token, NOW);
    expect(counting.verifies()).toBe(3);
    await signer.verify(a!, NOW);
    expect(counting.verifies()).toBe(4);
  });

  it("should hand out copies, so a caller cannot change the cached claims", async () => {
    const signer = createJwtSigner({ keys: [KEY], ed25519: nodeEd25519 });
    const token = await signer.sign(accessClaims());
    const first = await signer.verify(token, NOW);
    first.sub = "u_admin";
    expect((await signer.verify(token, NOW)).sub).toBe("u_1");
  });

  it("should refuse no keys, two keys with one kid, and a time that is not a number", async () => {
    expect(() => createJwtSigner({ keys: [], ed25519: nodeEd25519 })).toThrow(RangeError);
    expect(() => createJwtSigner({ keys: [KEY, KEY], ed25519: nodeEd25519 })).toThrow(RangeError);
    const signer = createJwtSigner({ keys: [KEY], ed25519: nodeEd25519 });
    await expect(signer.verify(await signer.sign(accessClaims()), Number.NaN)).rejects.toThrow(RangeError);
  });
});

/** Strings, some JWT-shaped (three dot-separated parts, some decoding to JSON headers), others anything. */
function tokenLike(): fc.Arbitrary<string> {
  const part = fc.oneof(
    fc.string(),
    fc.base64String().map((s) => s.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")),
    fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? "").toString("base64url")),
    fc.record({ alg: fc.constantFrom("EdDSA", "none", "HS256"), kid: fc.constantFrom(KEY.kid, "x", ""), typ: fc.constantFrom("JWT", undefined) }, { requiredKeys: [] }).map(b64json),
    fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => Buffer.from(b).toString("base64url")),
  );
  return fc.oneof(
    fc.string({ unit: "binary-ascii" }),
    fc.tuple(part, part, part).map((parts) => parts.join(".")),
    fc.array(part, { maxLength: 5 }).map((parts) => parts.join(".")),
  );
}

/** Any claims, issued around 2026 and alive for a day at most. */
function claimsArb(): fc.Arbitrary<TokenClaims> {
  const text = fc.string({ unit: "grapheme", maxLength: 30 });
  return fc.record({
    sub: text, sid: text, typ: fc.constantFrom(...Object.values(TokenType)),
    scope: fc.option(text, { nil: undefined }), gsid: fc.option(text, { nil: undefined }),
    xid: fc.option(text, { nil: undefined }), jti: fc.option(text, { nil: undefined }),
    iat: fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }),
    life: fc.integer({ min: 1, max: 86_400 }),
  }).map(({ life, ...c }) => {
    const claims: TokenClaims = { ...c, exp: c.iat + life };
    for (const name of ["scope", "gsid", "xid", "jti"] as const) if (claims[name] === undefined) delete claims[name];
    return claims;
  });
}
