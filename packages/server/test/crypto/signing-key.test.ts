import { createPrivateKey, createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSigningKey, signingKeyFromSeed } from "../../src/crypto/signing-key.js";

const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"));

/** The public key OpenSSL derives from a seed (an oracle independent of noble). */
function opensslPublicKey(seed: Uint8Array): Uint8Array {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const jwk = createPublicKey(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" })).export({ format: "jwk" });
  return Uint8Array.from(Buffer.from(jwk.x!, "base64url"));
}

describe("signingKeyFromSeed", () => {
  it("should derive RFC 8032's TEST 1 public key", () => {
    const key = signingKeyFromSeed(hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"), "k1");
    expect(key.publicKey).toEqual(hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
    expect(key.kid).toBe("k1");
  });

  it("should copy the seed, so later changes to the caller's array do not touch the key", () => {
    const seed = new Uint8Array(32).fill(7);
    const key = signingKeyFromSeed(seed, "k1");
    seed.fill(0);
    expect(key.privateKey).toEqual(new Uint8Array(32).fill(7));
  });

  it("should refuse a seed of another length and an empty kid", () => {
    expect(() => signingKeyFromSeed(new Uint8Array(31), "k1")).toThrow(RangeError);
    expect(() => signingKeyFromSeed(new Uint8Array(64), "k1")).toThrow(RangeError);
    expect(() => signingKeyFromSeed(new Uint8Array(32), "")).toThrow(RangeError);
  });
});

describe("generateSigningKey", () => {
  it("should make a 32-byte seed and the public key OpenSSL derives from it", () => {
    for (let i = 0; i < 10; i++) {
      const key = generateSigningKey();
      expect(key.privateKey).toHaveLength(32);
      expect(key.publicKey).toEqual(opensslPublicKey(key.privateKey));
    }
  });

  it("should use the kid given, or a random one", () => {
    expect(generateSigningKey("2026-01").kid).toBe("2026-01");
    expect(generateSigningKey().kid).not.toBe(generateSigningKey().kid);
  });

  it("should make a new seed each time", () => {
    expect(generateSigningKey().privateKey).not.toEqual(generateSigningKey().privateKey);
  });
});
